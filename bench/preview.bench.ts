/**
 * Preview benchmark: what the agent waits for from `preview_start` to its first screenshot, and
 * what the headless browser costs in memory.
 *
 * For each kind of preview — the built-in static server (an index.html) and a dev-server command
 * from `.hotaru/launch.json` (a small Node server, so the number is ours and not a framework's) —
 * runs PREVIEW_BENCH_RUNS (default 3) times, each in a fresh project, and reports medians of:
 * - readyMs: `start()` until the URL answers;
 * - browserMs: opening headless Chromium and loading the page (the first `driver()`);
 * - screenshotMs: one viewport screenshot, JPEG, 1024 wide (what `preview_screenshot` sends);
 * - totalMs: `preview_start` to the first screenshot, the sum as the agent sees it;
 * - browserMemoryMB: memory of Chromium and all its processes with the page loaded, as the sum of their
 *   proportional set sizes (shared pages counted once; Linux), and browserProcesses: how many there are.
 *
 *   npm run bench:preview
 *   HOTARU_CHROMIUM=/path/to/chrome PREVIEW_BENCH_RUNS=5 npm run bench:preview
 *
 * Prints one JSON object as the last line of stdout; progress goes to stderr.
 */
import './support/app-modules'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

const RUNS = Number(process.env.PREVIEW_BENCH_RUNS ?? 3)

const PAGE = `<!doctype html><html><head><title>Bench</title><style>body{font:16px system-ui;margin:2rem}</style></head>
<body><h1>Preview bench</h1><ul>${Array.from({ length: 40 }, (_, i) => `<li>Item ${i}</li>`).join('')}</ul><script>console.log('ready')</script></body></html>`

const SERVER = `require('node:http').createServer((q, s) => s.end(require('node:fs').readFileSync('index.html'))).listen(Number(process.env.PORT), '127.0.0.1')`

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`)
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round((sorted[Math.floor(sorted.length / 2)] as number) * 10) / 10
}

type Sample = { readyMs: number; browserMs: number; screenshotMs: number; totalMs: number; browserMemoryMB: number; browserProcesses: number }

async function main(): Promise<void> {
  const { createServices } = await import('../src/main/core/services')
  const dataDir = mkdtempSync(join(tmpdir(), 'hotaru-bench-preview-data-'))
  const services = createServices({ dataDir, transport: 'cli' })
  const results: Record<string, unknown> = { runs: RUNS, cpus: cpus().length, loadavg: loadavg()[0] }
  try {
    for (const kind of ['static', 'command'] as const) {
      const samples: Sample[] = []
      for (let run = 0; run < RUNS; run++) {
        const root = realpathSync(mkdtempSync(join(tmpdir(), `hotaru-bench-preview-${kind}-`)))
        writeFileSync(join(root, 'index.html'), PAGE)
        if (kind === 'command') {
          writeFileSync(join(root, 'server.js'), SERVER)
          mkdirSync(join(root, '.hotaru'))
          writeFileSync(join(root, '.hotaru/launch.json'), JSON.stringify({ configurations: [{ name: 'web', command: 'node server.js' }] }))
          services.trust.trust(root)
        }
        const project = services.projects.openFolder(root, { tab: false })
        try {
          await services.configs.of(project).load()
          const preview = services.previews.for(project)
          const t0 = performance.now()
          await preview.start()
          const t1 = performance.now()
          const driver = await preview.driver()
          const t2 = performance.now()
          const shot = await driver.screenshot({ maxWidth: 1024 })
          const t3 = performance.now()
          const memory = (await driver.memory?.()) ?? { bytes: 0, processes: 0 }
          const sample = { readyMs: t1 - t0, browserMs: t2 - t1, screenshotMs: t3 - t2, totalMs: t3 - t0, browserMemoryMB: memory.bytes / 1024 / 1024, browserProcesses: memory.processes }
          log(`${kind} #${run + 1}: ${JSON.stringify(Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, Math.round(v)])))} (${shot.data.length} bytes)`)
          samples.push(sample)
        } finally {
          await services.projects.close(project.id)
          rmSync(root, { recursive: true, force: true })
        }
      }
      results[kind] = Object.fromEntries((['readyMs', 'browserMs', 'screenshotMs', 'totalMs', 'browserMemoryMB', 'browserProcesses'] as const).map((key) => [key, median(samples.map((s) => s[key]))]))
    }
  } finally {
    await services.dispose()
    rmSync(dataDir, { recursive: true, force: true })
  }
  process.stdout.write(`${JSON.stringify(results)}\n`)
}

await main()
