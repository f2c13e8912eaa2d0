// Peak memory of grep (the ripgrep engine) over a file that is one long line: prints one JSON object with a
// row per size (peak RSS growth of this process and rg's own peak RSS, in MB, and the time taken).
// Run: node --expose-gc --import tsx bench/grep-long-line.bench.ts (GREP_BENCH_MB="20,60,150" sets the sizes;
// each size runs in a fresh process so one size's peak does not hide the next one's).
import './support/app-modules'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const sizes = (process.env.GREP_BENCH_MB ?? '20,60,150').split(',').map(Number)
const single = process.env.GREP_BENCH_ONE

if (single === undefined) {
  const rows: unknown[] = []
  for (const mb of sizes) {
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, GREP_BENCH_ONE: String(mb) },
      encoding: 'utf8',
      // The quadratic splitter this guards against took minutes at 150 MB.
      timeout: 300_000,
    })
    const line = run.stdout.trim().split('\n').pop()
    rows.push(line ? JSON.parse(line) : { lineMb: mb, error: run.error?.message ?? run.stderr.trim().split('\n').pop() ?? `exit ${run.status}` })
  }
  console.log(JSON.stringify({ lines: rows }))
} else {
  const { grepWithRipgrep } = await import('../src/main/core/tools/search/grep-engine')
  const { bundledRipgrep } = await import('../src/main/core/tools/search/ripgrep')
  const rg = bundledRipgrep()
  if (!rg) throw new Error('no bundled ripgrep')
  const mb = Number(single)
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-grep-bench-')))
  // One line, the match at its very end, so every byte of it goes through the splitter.
  const body = Buffer.alloc(mb * 1024 * 1024, 'x')
  body.write('needle\n', body.length - 7)
  writeFileSync(join(dir, 'one-line.txt'), body)
  // rg under /usr/bin/time: its own peak RSS (what rg holds for the line) next to ours.
  const rgRss = join(dir, 'rg-rss')
  const wrapper = join(dir, 'rg')
  writeFileSync(wrapper, `#!/bin/sh\nexec /usr/bin/time -f %M -o ${JSON.stringify(rgRss)} ${JSON.stringify(rg)} "$@"\n`)
  chmodSync(wrapper, 0o755)
  global.gc?.()
  const base = process.memoryUsage().rss
  let peak = base
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 5)
  const started = performance.now()
  const result = await grepWithRipgrep(wrapper, { root: dir, searchRel: '', pattern: 'needle', keep: 100, signal: new AbortController().signal })
  const ms = Math.round(performance.now() - started)
  clearInterval(timer)
  peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024)
  const rgPeakMb = Math.round(Number(readFileSync(rgRss, 'utf8').trim().split('\n').pop()) / 1024)
  rmSync(dir, { recursive: true, force: true })
  console.log(JSON.stringify({ lineMb: mb, peakRssGrowthMb: Math.round((peak - base) / 1048576), rgPeakRssMb: rgPeakMb, ms, matches: result.total }))
}
