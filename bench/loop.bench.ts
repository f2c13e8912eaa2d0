/**
 * The agent loop end to end, side by side with Claude Code in the same run: the same scripted
 * 12-step task (reads, edits, a write, shell commands, grep/glob) through the real `hotaru run`
 * process and the real `claude -p`, both against the fake LLM server (Claude Code through
 * ANTHROPIC_BASE_URL). Two projects: the small fixture, and the same files inside a generated
 * ~40k-file tree committed to git (checkpoints on). Runs alternate between the two agents so both
 * see the same machine load; the report gives medians.
 *
 * Per run: start → first request, last request → process exit, wall time, peak RSS (VmHWM), and
 * the TCP connections the requests came over (all of the first user turn); then a second user turn
 * continues the session, and the requests of both turns give an estimated cost with prompt caching
 * and the cached-prefix reuse (`support/prompt-cost.ts`), ours beside Claude Code's.
 * Claude Code is installed from npm into a temporary folder (`@anthropic-ai/claude-code`); when
 * that fails the report says so and lists ours alone.
 *
 *   npm run bench:loop                          # 3 runs each, small and large
 *   LOOP_BENCH_RUNS=5 LOOP_BENCH_FILES=40000 npm run bench:loop
 *   LOOP_BENCH_SKIP_LARGE=1 npm run bench:loop  # small fixture only
 *   LOOP_BENCH_SKIP_SMALL=1 npm run bench:loop  # the large tree only
 *   LOOP_BENCH_OURS_ONLY=1 npm run bench:loop   # ours alone (no Claude Code install)
 *   LOOP_BENCH_HOTARU_BIN=/other/build/bin/hotaru.js npm run bench:loop   # measure another build of ours
 *   CLAUDE_BIN=/path/to/claude npm run bench:loop   # use an installed Claude Code
 *   LOOP_BENCH_KNOB_OFF=0 npm run bench:loop    # skip the second line (ours with language servers off)
 *   LOOP_BENCH_TREE=https://github.com/tldr-pages/tldr npm run bench:loop   # also in a real repository's tree,
 *                                               # copied afresh for each run ("real" in the report)
 *
 * The headline is what a new user runs: our defaults, language servers on. Ours with `"lsp": false`
 * (Claude Code has no language servers) is a second, labelled line, measured in the same interleaving.
 *
 * Needs `npm run build`. Prints one JSON object on stdout; progress goes to stderr.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startFakeLlm, type FakeTurn } from '../test/fixtures/fake-llm'
import { promptCost, type PromptCost } from './support/prompt-cost'
import { copyTaskProject, makeTaskProject, makeTaskProjectFrom, resetTaskProject, taskAnswers, writeFile } from './support/task-project'

const ROOT = join(import.meta.dirname, '..')
// Another build's entry (e.g. one of the previous commit) to compare against, in the same conditions.
const BIN = process.env.LOOP_BENCH_HOTARU_BIN ?? join(ROOT, 'bin', 'hotaru.js')
const RUNS = Number(process.env.LOOP_BENCH_RUNS ?? 3)
const LARGE_FILES = Number(process.env.LOOP_BENCH_FILES ?? 40_000)
const KNOB_OFF = process.env.LOOP_BENCH_KNOB_OFF !== '0'
/** A real repository (path or URL) to run the task in as well, copied afresh for every run (e.g. the tldr-pages tree). */
const REAL_TREE = process.env.LOOP_BENCH_TREE

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`)
}

/** `hotaru-lsp-off`: ours with language servers switched off, the second line of the report. */
type Agent = 'hotaru' | 'claude' | 'hotaru-lsp-off'

/** The task, in each agent's own tool names and argument shapes. */
function script(agent: Agent, project: string): FakeTurn[] {
  const abs = (path: string): string => join(project, path)
  const call = (name: string, args: Record<string, unknown>): FakeTurn => ({ toolCalls: [{ name, args }] })
  if (agent !== 'claude') {
    const bash = (command: string) => call('bash', { command, description: 'step' })
    return [
      { text: 'Reading src/app.ts.', toolCalls: [{ name: 'read', args: { filePath: 'src/app.ts' } }] },
      call('read', { filePath: 'src/util.ts' }),
      call('grep', { pattern: 'export function', path: 'src' }),
      call('edit', { filePath: 'src/app.ts', oldString: 'return 1', newString: 'return 2' }),
      call('write', { filePath: 'src/new.ts', content: 'export const created = true\n' }),
      bash('ls src'),
      call('read', { filePath: 'src/new.ts' }),
      call('edit', { filePath: 'src/util.ts', oldString: 'a + b', newString: 'a + b + 0' }),
      bash('wc -l src/app.ts src/util.ts'),
      call('glob', { pattern: 'src/*.ts' }),
      bash('cat src/new.ts'),
      { text: 'All done: app.ts returns 2, util.ts adjusted, new.ts created.' },
      // The second user turn (same session): a short follow-up.
      call('read', { filePath: 'src/app.ts' }),
      call('edit', { filePath: 'src/app.ts', oldString: 'return 2', newString: 'return 3' }),
      { text: 'app.ts now returns 3.' },
    ]
  }
  const bash = (command: string) => call('Bash', { command, description: 'step' })
  return [
    { text: 'Reading src/app.ts.', toolCalls: [{ name: 'Read', args: { file_path: abs('src/app.ts') } }] },
    call('Read', { file_path: abs('src/util.ts') }),
    call('Grep', { pattern: 'export function', path: abs('src') }),
    call('Edit', { file_path: abs('src/app.ts'), old_string: 'return 1', new_string: 'return 2' }),
    call('Write', { file_path: abs('src/new.ts'), content: 'export const created = true\n' }),
    bash('ls src'),
    call('Read', { file_path: abs('src/new.ts') }),
    call('Edit', { file_path: abs('src/util.ts'), old_string: 'a + b', new_string: 'a + b + 0' }),
    bash('wc -l src/app.ts src/util.ts'),
    call('Glob', { pattern: 'src/*.ts', path: project }),
    bash('cat src/new.ts'),
    { text: 'All done: app.ts returns 2, util.ts adjusted, new.ts created.' },
    call('Read', { file_path: abs('src/app.ts') }),
    call('Edit', { file_path: abs('src/app.ts'), old_string: 'return 2', new_string: 'return 3' }),
    { text: 'app.ts now returns 3.' },
  ]
}

/** Claude Code from npm in a temporary folder (its platform package carries the binary). */
function installClaude(dir: string): { bin: string; version: string } | { error: string } {
  if (process.env.LOOP_BENCH_OURS_ONLY) return { error: 'Claude Code skipped (LOOP_BENCH_OURS_ONLY)' }
  if (process.env.CLAUDE_BIN) return { bin: process.env.CLAUDE_BIN, version: claudeVersion(process.env.CLAUDE_BIN) }
  try {
    mkdirSync(dir, { recursive: true })
    log('installing @anthropic-ai/claude-code from npm…')
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', '@anthropic-ai/claude-code'], { cwd: dir, stdio: 'ignore', timeout: 600_000 })
    const platform = join(dir, 'node_modules', '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude')
    const shim = join(dir, 'node_modules', '.bin', 'claude')
    const bin = existsSync(platform) ? platform : shim
    return { bin, version: claudeVersion(bin) }
  } catch (error) {
    return { error: `Claude Code could not be installed or started: ${(error as Error).message.split('\n')[0]}` }
  }
}

function claudeVersion(bin: string): string {
  return execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 }).trim()
}

interface RunResult {
  firstRequestMs: number
  lastRequestToExitMs: number
  wallMs: number
  peakRssMB: number
  requests: number
  /** TCP connections the model requests came over (a new one costs a TLS handshake against a real endpoint). */
  connections: number
  /** When each model request arrived, in ms after the start: where a run spends its time. */
  requestsAtMs: number[]
  /** Estimated $ of both user turns' requests with prompt caching, and the cached-prefix reuse (see prompt-cost.ts). */
  cost: PromptCost
}

async function runOnce(agent: Agent, project: string, claudeBin: string | null): Promise<RunResult> {
  const work = mkdtempSync(join(tmpdir(), `bench-loop-${agent}-`))
  // Claude Code's small-model calls (titles, topic checks) are side requests.
  const server = await startFakeLlm({ turns: taskAnswers(script(agent, project), 40) })
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: work,
    XDG_CONFIG_HOME: join(work, 'config'),
    ANTHROPIC_API_KEY: 'bench',
    ANTHROPIC_BASE_URL: server.anthropicBaseURL,
  }
  const ours = agent !== 'claude'
  const [command, args] =
    ours
      ? [process.execPath, [BIN, 'run', '--dir', project, '--yes', '--model', 'anthropic/claude-sonnet-4-6', 'improve the project']]
      : [
          claudeBin as string,
          ['-p', 'improve the project', '--model', 'claude-sonnet-4-6', '--allowedTools', 'Read', 'Edit', 'Write', 'Bash', 'Grep', 'Glob', '--output-format', 'text'],
        ]
  // The follow-up turn continues the same session; only its cost is measured (timings are of the first turn).
  const followUp = ours ? [...args.slice(0, -1), '--continue', 'now make app return 3'] : ['--continue', ...args.slice(0, 1), 'now make app return 3', ...args.slice(2)]
  if (ours) {
    env.HOTARU_DATA_DIR = join(work, 'data')
    if (agent === 'hotaru-lsp-off') writeFile(join(work, 'config', 'hotaru'), 'hotaru.json', JSON.stringify({ lsp: false }))
  }
  else Object.assign(env, { DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1' })
  const started = performance.timeOrigin + performance.now()
  const child = spawn(command, args, { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let peakKb = 0
  const poll = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]))
    } catch {
      // The process ended between two polls: the last reading stands.
    }
  }, 10)
  let stderr = ''
  let stdout = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearInterval(poll)
  const ended = performance.timeOrigin + performance.now()
  if (code !== 0) {
    await server.close()
    rmSync(work, { recursive: true, force: true })
    throw new Error(`${agent} failed (${code}): ${stderr.slice(-2000)}`)
  }
  const edited = readFileSync(join(project, 'src/app.ts'), 'utf8').includes('return 2') && existsSync(join(project, 'src/new.ts'))
  const firstTurn = server.requests.length
  const second = spawn(command, followUp, { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let secondErr = ''
  second.stderr.on('data', (d: Buffer) => (secondErr += d.toString()))
  second.stdout.resume()
  const secondCode = await new Promise<number | null>((resolve) => second.on('close', resolve))
  await server.close()
  rmSync(work, { recursive: true, force: true })
  if (!edited) throw new Error(`${agent} did not complete the task: ${stdout.slice(-500)} ${stderr.slice(-500)}`)
  if (secondCode !== 0 || !readFileSync(join(project, 'src/app.ts'), 'utf8').includes('return 3')) {
    throw new Error(`${agent}'s second turn failed (${secondCode}): ${secondErr.slice(-1000)}`)
  }
  const at = server.requests.slice(0, firstTurn).map((r) => r.at)
  return {
    cost: promptCost(server.requests.map((r) => r.body as Record<string, unknown>)),
    requests: at.length,
    connections: new Set(server.requests.map((r) => r.connection)).size,
    requestsAtMs: at.map((t) => Math.round(t - started)),
    firstRequestMs: Math.round((at[0] ?? ended) - started),
    lastRequestToExitMs: Math.round(ended - (at.at(-1) ?? started)),
    wallMs: Math.round(ended - started),
    peakRssMB: Math.round(peakKb / 1024),
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

function summarize(runs: RunResult[]) {
  const pick = (key: Exclude<keyof RunResult, 'requestsAtMs' | 'cost'>) => median(runs.map((r) => r[key]))
  return {
    // Requests are scripted: every run sends the same ones, so the first run's cost stands for all.
    twoTurnCost: runs[0]?.cost ?? null,
    firstRequestMs: pick('firstRequestMs'),
    lastRequestToExitMs: pick('lastRequestToExitMs'),
    wallMs: pick('wallMs'),
    peakRssMB: pick('peakRssMB'),
    requests: pick('requests'),
    connections: pick('connections'),
    runs,
  }
}

/**
 * The task in a project of its own: `bulk` generated files, or a clone of the real repository `source`. A
 * real tree is copied afresh for every run (its git index then no longer matches the files' stat data, as
 * after a copy or checkout); a generated one is reset to its commit between runs.
 */
async function benchProject(name: string, setup: { bulk: number } | { source: string }, claude: { bin: string } | null) {
  const project = mkdtempSync(join(tmpdir(), `bench-loop-${name}-`))
  const copies = 'source' in setup ? mkdtempSync(join(tmpdir(), `bench-loop-${name}-copies-`)) : undefined
  try {
    let started = performance.now()
    const files = 'source' in setup ? makeTaskProjectFrom(join(project, 'tree'), setup.source) : (makeTaskProject(project, setup.bulk), setup.bulk + 2)
    const template = 'source' in setup ? join(project, 'tree') : project
    // The tree is written back to disk before the first run, not during it.
    execFileSync('sync')
    log(`${name}: project with ${files} files committed in ${Math.round(performance.now() - started)} ms`)
    const runs: Record<Agent, RunResult[]> = { hotaru: [], claude: [], 'hotaru-lsp-off': [] }
    const errors: string[] = []
    for (let i = 0; i < RUNS; i++) {
      for (const agent of ['hotaru', 'claude', 'hotaru-lsp-off'] as Agent[]) {
        if (agent === 'claude' && !claude) continue
        if (agent === 'hotaru-lsp-off' && !KNOB_OFF) continue
        let dir = template
        if (copies) {
          dir = mkdtempSync(join(copies, `${agent}-`))
          copyTaskProject(template, dir)
          execFileSync('sync')
        } else resetTaskProject(project)
        started = performance.now()
        try {
          runs[agent].push(await runOnce(agent, dir, claude?.bin ?? null))
          log(`${name} run ${i + 1}/${RUNS} ${agent}: ${Math.round(performance.now() - started)} ms`)
        } catch (error) {
          errors.push((error as Error).message)
          log(`${name} run ${i + 1}/${RUNS} ${agent} failed: ${(error as Error).message.slice(0, 300)}`)
        } finally {
          if (copies) rmSync(dir, { recursive: true, force: true })
        }
      }
    }
    const ours = summarize(runs.hotaru)
    const theirs = runs.claude.length > 0 ? summarize(runs.claude) : null
    const off = runs['hotaru-lsp-off'].length > 0 ? summarize(runs['hotaru-lsp-off']) : null
    const ratio = (a: number, b: number | undefined) => (b ? Math.round((a / b) * 100) / 100 : null)
    return {
      project: name,
      files,
      ...('source' in setup ? { copiedFreshPerRun: true } : {}),
      hotaru: ours,
      claudeCode: theirs,
      wallRatio: ratio(ours.wallMs, theirs?.wallMs),
      costRatio: ratio(ours.twoTurnCost?.dollars ?? 0, theirs?.twoTurnCost?.dollars),
      // Second line: a switch a new user has not flipped.
      knobOff: off ? { languageServers: 'off', hotaru: off, wallRatio: ratio(off.wallMs, theirs?.wallMs), lspOnOverOff: ratio(ours.wallMs, off.wallMs) } : null,
      ...(errors.length > 0 ? { errors } : {}),
    }
  } finally {
    rmSync(project, { recursive: true, force: true })
    if (copies) rmSync(copies, { recursive: true, force: true })
  }
}

const claudeDir = mkdtempSync(join(tmpdir(), 'bench-claude-code-'))
try {
  const installed = installClaude(claudeDir)
  const claude = 'bin' in installed ? installed : null
  if (!claude) log(`${'error' in installed ? installed.error : ''}; reporting ours alone`)
  const small = process.env.LOOP_BENCH_SKIP_SMALL ? null : await benchProject('small', { bulk: 0 }, claude)
  const large = process.env.LOOP_BENCH_SKIP_LARGE ? null : await benchProject('large', { bulk: LARGE_FILES }, claude)
  const real = REAL_TREE ? await benchProject('real', { source: REAL_TREE }, claude) : null
  const report = {
    machine: {
      cpus: cpus().length,
      node: process.version,
      // The machine may be shared: timings are only comparable within this run.
      loadAverage: loadavg().map((v) => Math.round(v * 100) / 100),
    },
    runsPerAgent: RUNS,
    languageServers: 'on (our defaults); knobOff lines: off',
    claudeCode: claude ? { version: claude.version } : { unavailable: 'error' in installed ? installed.error : 'unknown' },
    small,
    large,
    ...(real ? { real } : {}),
    targets: {
      small: { wallRatio: 0.5, firstRequestMs: 250, lastRequestToExitMs: 30, peakRssMB: 150, lspOnOverOff: 1.15, costRatio: 0.5, reuse: 1 },
      large: { wallRatio: 0.6, peakRssMB: 250, lspOnOverOff: 1.15 },
    },
  }
  process.stdout.write(`${JSON.stringify(report)}\n`)
} finally {
  rmSync(claudeDir, { recursive: true, force: true })
}
