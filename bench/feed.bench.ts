/**
 * The snapshot worker and its change feed on a large tree, as the desktop app and `serve` run
 * them: memory the worker and its watcher add to the process, how long the watcher takes to
 * become live, a checkpoint after +1 file through the worker with the feed, and the longest
 * stall of the main thread's event loop meanwhile (all snapshot work is in the worker, so it
 * should stay near the idle value).
 *
 *   npx tsx bench/feed.bench.ts               # 40k small files in nested folders
 *   FEED_BENCH_FILES=10000 npx tsx bench/feed.bench.ts
 *
 * Prints one JSON object on stdout; progress goes to stderr.
 */
import './support/app-modules'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'

const { SnapshotClient } = await import('../src/main/core/snapshot/index')

const FILES = Number(process.env.FEED_BENCH_FILES ?? 40_000)

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`)
}

function rssMB(): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
  return match ? Math.round(Number(match[1]) / 1024) : Math.round(process.memoryUsage().rss / 1048576)
}

function ms(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

const base = mkdtempSync(join(tmpdir(), 'hotaru-feed-bench-'))
try {
  const root = join(base, 'project')
  let started = performance.now()
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `pages/p${i % 40}/s${Math.floor(i / 40) % 25}`)
    if (i < 1000) mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `page${i}.md`), `# Page ${i}\n\nSome text of page ${i}.\n`)
  }
  log(`generated ${FILES} files in ${ms(started)} ms`)

  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  const rssBefore = rssMB()
  const client = new SnapshotClient({ root, storeDir: join(base, 'store') })
  started = performance.now()
  const first = await client.snapshot()
  const firstMs = ms(started)
  const rssAfterFirst = rssMB()
  started = performance.now()
  await client.watch()
  const watchLiveMs = ms(started)
  const rssWithFeed = rssMB()
  await client.snapshot() // the walk every feed start requires
  await new Promise((resolve) => setTimeout(resolve, 300))
  await client.snapshot()

  const plusOne: number[] = []
  const plusOneStatted: number[] = []
  for (let k = 0; k < 5; k++) {
    writeFileSync(join(root, `pages/new${k}.md`), `# New ${k}\n`)
    started = performance.now()
    // As after a shell command: let the feed report, then take its increments.
    await client.settleAfterUnlistedChange()
    const result = await client.snapshot()
    plusOne.push(ms(started))
    plusOneStatted.push(result.stats.filesStatted)
  }
  const marked: number[] = []
  for (let k = 0; k < 5; k++) {
    writeFileSync(join(root, `pages/marked${k}.md`), `# Marked ${k}\n`)
    started = performance.now()
    // As after an edit tool: the path it wrote is marked, nothing waits for the feed.
    await client.markDirty([`pages/marked${k}.md`])
    await client.snapshot({ trustMarks: true })
    marked.push(ms(started))
  }
  delay.disable()
  const rssEnd = rssMB()
  await client.dispose()
  const report = {
    machine: { cpus: cpus().length, node: process.version, loadAverage: loadavg().map((v) => Math.round(v * 100) / 100) },
    files: FILES,
    firstSnapshotMs: firstMs,
    firstSnapshotFull: first.stats.full,
    watchLiveMs,
    rssMB: { before: rssBefore, afterFirstSnapshot: rssAfterFirst, withFeed: rssWithFeed, end: rssEnd, addedByWorkerAndFeed: rssEnd - rssBefore },
    plusOneWithFeedMs: median(plusOne),
    plusOneWithFeedFilesStatted: median(plusOneStatted),
    plusOneMarkedMs: median(marked),
    mainThreadMaxStallMs: Math.round(delay.max / 1e6),
    mainThreadP99StallMs: Math.round(delay.percentile(99) / 1e6),
    note: 'plusOneWithFeedMs includes the feed settle (25 ms of quiet); stalls are of this thread while the worker worked',
  }
  process.stdout.write(`${JSON.stringify(report)}\n`)
} finally {
  rmSync(base, { recursive: true, force: true })
}
