/**
 * Sandbox benchmark: what the OS sandbox adds to one bash tool call. Runs the real
 * bash tool with `true` 100 times unsandboxed and 100 times sandboxed (bubblewrap on
 * Linux, Seatbelt on macOS), alternating so background load hits both alike, and
 * reports the medians and the difference (target: ≤ 15 ms extra). Prints one JSON
 * object as the last line of stdout.
 *
 * Run: node --import tsx bench/sandbox.bench.ts
 */
import './support/app-modules'
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

const RUNS = 100
const TARGET_EXTRA_MS = 15

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return Number((sorted[Math.floor(sorted.length / 2)] as number).toFixed(2))
}

async function main(): Promise<void> {
  const { bashTool } = await import('../src/main/core/tools/bash')
  const { runTool } = await import('../src/main/core/tools/run-tool')
  const { BackgroundProcesses } = await import('../src/main/core/tools/bash/background')
  const { FileTimes } = await import('../src/main/core/tools/file-times')
  const { MemoryTodoStore } = await import('../src/main/core/tools/todos')
  const { commandSandbox } = await import('../src/main/core/sandbox/project')
  const { sandboxSupport } = await import('../src/main/core/sandbox/support')
  type ToolContext = import('../src/main/core/tools/tool').ToolContext

  const base = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-bench-sandbox-')))
  const project = join(base, 'project')
  mkdirSync(project)
  const support = sandboxSupport()
  const sandbox = commandSandbox({ enabled: true }, { projectRoot: project, homeDir: base, dataDir: join(base, 'data'), env: process.env })
  // The same sandbox without the unix-socket seccomp filter: what the filter itself costs.
  const unfiltered = commandSandbox({ enabled: true, allowUnixSockets: true }, { projectRoot: project, homeDir: base, dataDir: join(base, 'data'), env: process.env })
  const background = new BackgroundProcesses()
  const context = (withSandbox: typeof sandbox): ToolContext => ({
    root: project,
    projectId: 'bench',
    sessionId: 'bench',
    messageId: 'm',
    callId: 'c',
    agent: 'build',
    signal: new AbortController().signal,
    ask: async () => undefined,
    metadata: () => undefined,
    fileTimes: new FileTimes(),
    todos: new MemoryTodoStore(),
    question: async () => [],
    runSubagent: async () => '',
    switchAgent: () => undefined,
    background,
    outputDir: join(base, 'out'),
    ...(withSandbox ? { sandbox: withSandbox } : {}),
  })
  const plain = context(undefined)
  const boxed = context(sandbox)
  const boxedUnfiltered = context(unfiltered)
  const call = async (ctx: ToolContext): Promise<number> => {
    const start = performance.now()
    const result = await runTool(bashTool, { command: 'true' }, ctx)
    const elapsed = performance.now() - start
    if (result.error || result.metadata.exitCode !== 0) throw new Error(`bash failed: ${result.output}`)
    return elapsed
  }
  try {
    if (!support.available) {
      process.stdout.write(`${JSON.stringify({ skipped: true, reason: support.problem ?? 'no sandbox on this platform' })}\n`)
      return
    }
    await call(plain)
    await call(boxed)
    await call(boxedUnfiltered)
    const a: number[] = []
    const b: number[] = []
    const c: number[] = []
    for (let i = 0; i < RUNS; i++) {
      a.push(await call(plain))
      b.push(await call(boxed))
      c.push(await call(boxedUnfiltered))
    }
    const unsandboxedMs = median(a)
    const sandboxedMs = median(b)
    const extraMs = Number((sandboxedMs - unsandboxedMs).toFixed(2))
    process.stdout.write(
      `${JSON.stringify({
        backend: support.backend,
        runs: RUNS,
        unsandboxedMs,
        sandboxedMs,
        extraMs,
        withoutUnixSocketFilterMs: median(c),
        unsandboxedMinMs: Number(Math.min(...a).toFixed(2)),
        sandboxedMinMs: Number(Math.min(...b).toFixed(2)),
        targetExtraMs: TARGET_EXTRA_MS,
        pass: extraMs <= TARGET_EXTRA_MS,
      })}\n`,
    )
  } finally {
    await background.dispose()
    rmSync(base, { recursive: true, force: true })
  }
}

await main()
