/**
 * Language server benchmark, with the real typescript-language-server on a small
 * generated TypeScript project:
 * - firstDiagnosticsMs: from a project's first edit (server not started) to the
 *   report on that file (fresh server each run);
 * - addedPerEditMs: with the server warm, how long an edit's result waits for its
 *   diagnostics (the post-step's whole cost), alternating edits that add and fix an error;
 *   the product caps this at `capMs`.
 * Prints one JSON object as the last line of stdout.
 *
 * Run: node --import tsx bench/lsp.bench.ts
 */
import './support/app-modules'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { ProjectLsp } from '../src/main/core/lsp/project-lsp'

// App modules load after the hook of app-modules.ts is registered.
const { diagnosticsAfterTool } = await import('../src/main/core/lsp/after-edit')
const { installPackages } = await import('../src/main/core/lsp/install')
const { ProjectLsp: ProjectLspClass } = await import('../src/main/core/lsp/project-lsp')

const MODULES = 30
const FIRST_RUNS = 3
const EDITS = 12
const CAP_MS = 2_000
const QUIET_MS = 250

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.floor(sorted.length / 2)] as number)
}

function makeProject(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-lsp-bench-')))
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext' }, include: ['src'] }))
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'bench', private: true, type: 'module' }))
  for (let i = 0; i < MODULES; i++) {
    const prev = i > 0 ? `import { value${i - 1} } from './m${i - 1}.js'\n` : ''
    writeFileSync(join(root, 'src', `m${i}.ts`), `${prev}export const value${i}: number = ${i > 0 ? `value${i - 1} + 1` : '0'}\nexport function f${i}(x: number): string {\n  return String(x * ${i})\n}\n`)
  }
  return root
}

function projectLsp(root: string): ProjectLsp {
  const env = process.env
  return new ProjectLspClass({
    root,
    installDir: join(root, '.no-install'),
    env,
    loginPath: () => Promise.resolve(env.PATH ?? ''),
    install: (packages) => installPackages(join(root, '.no-install'), packages, env),
    installDecision: () => undefined,
    installAllowed: () => false,
    onStatus: () => undefined,
    onDiagnostics: () => undefined,
    // The benchmark's own generated project.
    projectCode: () => true,
  })
}

const signal = new AbortController().signal
const edit = (lsp: ProjectLsp, file: string) =>
  diagnosticsAfterTool(lsp, { tool: 'edit', sessionId: 'ses_00000000bench', metadata: { filePath: file }, failed: false, signal, waitMs: CAP_MS, quietMs: QUIET_MS })

async function main(): Promise<void> {
  const first: number[] = []
  for (let run = 0; run < FIRST_RUNS; run++) {
    const root = makeProject()
    const lsp = projectLsp(root)
    const file = join(root, 'src', 'm5.ts')
    writeFileSync(file, "export const value5: number = 'five'\n")
    const start = performance.now()
    const report = await lsp.touch([file], { waitMs: 120_000, quietMs: QUIET_MS })
    first.push(performance.now() - start)
    if (!report.files[0]?.errors.length) throw new Error(`no diagnostics for the first edit: ${JSON.stringify(report)}`)
    await lsp.dispose()
    rmSync(root, { recursive: true, force: true })
  }

  const root = makeProject()
  const lsp = projectLsp(root)
  const file = join(root, 'src', 'm10.ts')
  await lsp.touch([file], { waitMs: 120_000 })
  const added: number[] = []
  let capped = 0
  let wrong = 0
  for (let i = 0; i < EDITS; i++) {
    const broken = i % 2 === 0
    writeFileSync(file, `import { value9 } from './m9.js'\nexport const value10: number = ${broken ? `'x${i}'` : `value9 + ${i}`}\n`)
    const start = performance.now()
    const result = await edit(lsp, file)
    const ms = performance.now() - start
    added.push(ms)
    if (ms >= CAP_MS - 5) capped += 1
    const hasError = /error TS2322/.test(result?.output ?? '')
    if (hasError !== broken) wrong += 1
  }
  await lsp.dispose()
  rmSync(root, { recursive: true, force: true })
  const result = {
    modules: MODULES,
    firstDiagnosticsMs: median(first),
    firstDiagnosticsRunsMs: first.map(Math.round),
    addedPerEditMs: median(added),
    addedPerEditMaxMs: Math.round(Math.max(...added)),
    edits: EDITS,
    capMs: CAP_MS,
    quietMs: QUIET_MS,
    editsAtCap: capped,
    editsWithWrongReport: wrong,
  }
  process.stdout.write(`${JSON.stringify(result)}\n`)
}

await main()
