/**
 * Shell analysis benchmark: loading the bash grammar (WebAssembly) once, and the
 * permission asks of typical command lines after that (parse, walk, path checks).
 * Prints one JSON object as the last line of stdout.
 *
 * Run: node --import tsx bench/shell.bench.ts
 */
import './support/app-modules'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

const { bashPermissionAsks } = await import('../src/main/core/permission/shell/bash-asks')
const { analyzeShell } = await import('../src/main/core/permission/shell/analyze')

const LINES = [
  'git status && git diff --stat',
  'npm test -- --run 2>&1 | tail -20',
  'cd src && grep -rn "TODO" . | head',
  'find . -name "*.ts" -exec grep -l foo {} +',
  'for f in src/*.ts; do echo "$f"; done',
  "cat <<'EOF' > notes.txt\nhello\nEOF",
  'x=$(git rev-parse HEAD); echo "${x:0:7}"',
  'mkdir -p build && cp -r src/* build/',
  'sort -r src/f1.ts | uniq -c && git log --oneline -3 --stat',
  "find . -name '*.ts' -newer src/f1.ts | head -5",
]
const RUNS = 200

const root = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-shell-bench-')))
mkdirSync(join(root, 'src'))
for (let i = 0; i < 20; i++) writeFileSync(join(root, 'src', `f${i}.ts`), 'x\n')

const loadStart = performance.now()
await bashPermissionAsks('true', root, root)
const firstMs = performance.now() - loadStart

const perLine: number[] = []
for (let run = 0; run < RUNS; run++) {
  const start = performance.now()
  for (const line of LINES) await bashPermissionAsks(line, root, root)
  perLine.push((performance.now() - start) / LINES.length)
}
perLine.sort((a, b) => a - b)
// Commands per run of all lines, for the cost of one command (a line holds several).
let commands = 0
for (const line of LINES) commands += (await analyzeShell(line, root)).commands.length
rmSync(root, { recursive: true, force: true })
const round = (n: number): number => Number(n.toFixed(3))
console.log(
  JSON.stringify({
    firstCallMs: round(firstMs),
    perLineMedianMs: round(perLine[Math.floor(perLine.length / 2)] as number),
    perLineP95Ms: round(perLine[Math.floor(perLine.length * 0.95)] as number),
    perCommandMedianMs: round(((perLine[Math.floor(perLine.length / 2)] as number) * LINES.length) / commands),
    commands,
    lines: LINES.length,
    runs: RUNS,
    load: loadavg()[0],
  }),
)
