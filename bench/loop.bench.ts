/**
 * The agent loop end to end: a scripted 12-step task (reads, edits, writes, shell
 * commands) through the real `hotaru run` process against the fake LLM server.
 * Prints one JSON object: process start → first request, median / p90 gap between
 * LLM requests (our overhead: tool runs, persistence, request building), wall time
 * and peak RSS of the hotaru process.
 *
 * Run: npm run bench:loop   (needs `npm run build`)
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startFakeLlm, type FakeTurn } from '../test/fixtures/fake-llm'

const ROOT = join(import.meta.dirname, '..')
const BIN = join(ROOT, 'bin', 'hotaru.js')

function script(): FakeTurn[] {
  const read = (filePath: string): FakeTurn => ({ text: `Reading ${filePath}.`, toolCalls: [{ name: 'read', args: { filePath } }] })
  const bash = (command: string): FakeTurn => ({ toolCalls: [{ name: 'bash', args: { command, description: 'step' } }] })
  return [
    read('src/app.ts'),
    read('src/util.ts'),
    { toolCalls: [{ name: 'grep', args: { pattern: 'export function' } }] },
    { toolCalls: [{ name: 'edit', args: { filePath: 'src/app.ts', oldString: 'return 1', newString: 'return 2' } }] },
    { toolCalls: [{ name: 'write', args: { filePath: 'src/new.ts', content: 'export const created = true\n' } }] },
    bash('ls src'),
    read('src/new.ts'),
    { toolCalls: [{ name: 'edit', args: { filePath: 'src/util.ts', oldString: 'a + b', newString: 'a + b + 0' } }] },
    bash('wc -l src/app.ts src/util.ts'),
    { toolCalls: [{ name: 'glob', args: { pattern: '**/*.ts' } }] },
    bash('cat src/new.ts'),
    { text: 'All done: app.ts returns 2, util.ts adjusted, new.ts created.' },
  ]
}

async function main(): Promise<void> {
  const server = await startFakeLlm({ turns: script() })
  const work = mkdtempSync(join(tmpdir(), 'hotaru-bench-loop-'))
  const project = join(work, 'project')
  const dataDir = join(work, 'data')
  for (const [path, content] of Object.entries({
    'src/app.ts': 'export function app() {\n  return 1\n}\n',
    'src/util.ts': 'export function add(a: number, b: number) {\n  return a + b\n}\n',
  })) {
    const abs = join(project, path)
    rmSync(abs, { force: true })
    await import('node:fs').then((fs) => fs.mkdirSync(join(abs, '..'), { recursive: true }))
    writeFileSync(abs, content)
  }
  const started = performance.timeOrigin + performance.now()
  const child = spawn(process.execPath, [BIN, 'run', '--dir', project, '--yes', 'improve the project'], {
    env: {
      ...process.env,
      HOME: work,
      XDG_CONFIG_HOME: join(work, 'config'),
      HOTARU_DATA_DIR: dataDir,
      ANTHROPIC_API_KEY: 'bench',
      ANTHROPIC_BASE_URL: server.anthropicBaseURL,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let peakKb = 0
  const poll = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
      const hwm = /VmHWM:\s+(\d+) kB/.exec(status)
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]))
    } catch {
      // The process has exited between two polls; the last reading stands.
    }
  }, 10)
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  child.stdout.resume()
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearInterval(poll)
  const ended = performance.timeOrigin + performance.now()
  await server.close()
  if (code !== 0) throw new Error(`hotaru run failed (${code}): ${stderr}`)
  const at = server.requests.map((r) => r.at)
  const gaps = at.slice(1).map((t, i) => t - (at[i] as number)).sort((a, b) => a - b)
  const pct = (p: number): number => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))] ?? 0
  rmSync(work, { recursive: true, force: true })
  const result = {
    requests: at.length,
    firstRequestMs: Math.round((at[0] ?? ended) - started),
    medianGapMs: Math.round(pct(0.5) * 10) / 10,
    p90GapMs: Math.round(pct(0.9) * 10) / 10,
    wallMs: Math.round(ended - started),
    peakRssMB: Math.round(peakKb / 1024),
    targets: { firstRequestMs: 1000, medianGapMs: 50, peakRssMB: 150 },
  }
  process.stdout.write(`${JSON.stringify(result)}\n`)
}

await main()
