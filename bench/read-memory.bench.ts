// Peak memory of the read tool's text path over a large file: prints JSON (peak RSS growth in MB).
// Run: node --expose-gc --import tsx bench/read-memory.bench.ts (READ_BENCH_MB sets the file size).
import './support/app-modules'
import { writeFileSync, rmSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const { formatLinesOf } = await import('../src/main/core/tools/read')
const { openRegularFile } = await import('../src/main/core/util/regular-file')

const sizeMb = Number(process.env.READ_BENCH_MB ?? 242)
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-read-bench-')))
const line = `${'x'.repeat(99)}\n`
const chunk = line.repeat(10_000)
const file = join(dir, 'big.txt')
writeFileSync(file, '')
for (let written = 0; written < sizeMb * 1024 * 1024; written += chunk.length) writeFileSync(file, chunk, { flag: 'a' })
global.gc?.()
const base = process.memoryUsage().rss
let peak = base
const timer = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss)
}, 5)
const started = performance.now()
// The read tool's text path: open (regular files only), then the streamed line window.
const { handle } = await openRegularFile(file, 'big.txt')
const result = await formatLinesOf(handle, 1000, 100, file)
await handle.close()
clearInterval(timer)
peak = Math.max(peak, process.memoryUsage().rss)
rmSync(dir, { recursive: true, force: true })
console.log(JSON.stringify({ fileMb: sizeMb, peakRssGrowthMb: Math.round((peak - base) / 1048576), ms: Math.round(performance.now() - started), lines: result.metadata.lines }))
