import { spawn } from 'node:child_process'
import type { CommandSandbox, SandboxLaunch } from '../sandbox/sandbox'
import { waitForExit } from '../process/exit'
import { startProcess, type StartedProcess } from '../process/spawn'
import { describeLeft, killTree, TREE_VARIABLE, treeTag, type KillResult } from '../process/tree'
import { BoundedText } from '../util/bounded-text'
import { errorMessage } from './types'

/** Hooks print a line or a JSON object; more is kept up to this cap so a runaway hook cannot fill memory. */
export const HOOK_OUTPUT_CAP = 64 * 1024
/** A hook that ignores SIGTERM gets this long before SIGKILL. */
const KILL_GRACE_MS = 1000

export interface HookProcessOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  timeoutMs: number
  signal?: AbortSignal
  /** Run inside the OS sandbox (off-list hosts are refused: nobody is asked during a hook). */
  sandbox?: CommandSandbox
}

export interface HookProcessResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  timedOut: boolean
  aborted: boolean
  /** The process could not be started, or its input could not be written. */
  error?: string
  /** After a timeout or abort: what the kill could not end (`describeLeft`). */
  processesLeft?: string
}

/** A hook's output: the start is what counts (a JSON answer), so the first `HOOK_OUTPUT_CAP` characters are kept. */
function collector(): { push(chunk: Buffer): void; text(): string } {
  const kept = new BoundedText({ maxChars: HOOK_OUTPUT_CAP, keep: 'head' })
  return {
    push: (chunk) => kept.write(chunk),
    text() {
      kept.end()
      return kept.dropped > 0 ? `${kept.text()}\n[… ${kept.dropped} more characters not kept]` : kept.text()
    },
  }
}

/**
 * Runs one hook command through the shell with `input` on stdin. The shell leads its
 * own process group (detached), so a timeout or an abort ends everything the hook
 * started, not just the shell.
 */
export async function runHookProcess(command: string, input: string, options: HookProcessOptions): Promise<HookProcessResult> {
  const base = { code: null, signal: null, stdout: '', stderr: '', timedOut: false }
  if (options.signal?.aborted) return { ...base, aborted: true }
  let child: StartedProcess
  let launch: SandboxLaunch | undefined
  const tag = treeTag()
  const env = { ...options.env, [TREE_VARIABLE]: tag }
  try {
    launch = options.sandbox ? await options.sandbox.wrap(['/bin/sh', '-c', command], { cwd: options.cwd, env }) : undefined
    const spawnOptions = { cwd: options.cwd, detached: process.platform !== 'win32', windowsHide: true, stdio: ['pipe', 'pipe', 'pipe'] as const }
    if (launch) {
      const sandboxed = spawn(launch.command, launch.args, { ...spawnOptions, env: launch.env, stdio: ['pipe', 'pipe', 'pipe', ...launch.stdio] })
      launch.started(sandboxed)
      child = sandboxed
    } else if (process.platform === 'win32') {
      child = spawn(command, { ...spawnOptions, shell: true, env, stdio: ['pipe', 'pipe', 'pipe'] })
    } else {
      // What `shell: true` runs, through the launcher where there is one.
      child = await startProcess('/bin/sh', ['-c', command], { cwd: options.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
    }
  } catch (error) {
    await launch?.dispose()
    return { ...base, aborted: false, error: `could not start: ${errorMessage(error)}` }
  }
  const stdout = collector()
  const stderr = collector()
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk))
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk))
  let startError: string | undefined
  child.once('error', (error: Error) => {
    startError = `could not start: ${error.message}`
  })
  child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
    // The hook exited without reading its input, which hooks are free to do: EPIPE on a pipe, and
    // ECONNRESET on the socket a process launcher connects stdin with.
    if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') startError ??= `could not write the hook's input: ${error.message}`
  })
  child.stdin?.end(input)

  let timedOut = false
  let aborted = false
  let killing: Promise<KillResult> | undefined
  const kill = (): void => {
    if (killing || child.pid === undefined) return
    killing = killTree(child.pid, { graceMs: KILL_GRACE_MS, tag })
  }
  const timer = setTimeout(() => {
    timedOut = true
    kill()
  }, options.timeoutMs)
  const onAbort = (): void => {
    aborted = true
    kill()
  }
  options.signal?.addEventListener('abort', onAbort, { once: true })
  // An abort while the process was being started.
  if (options.signal?.aborted) onAbort()
  try {
    const exit = await waitForExit(child)
    const left = killing ? describeLeft(await killing) : undefined
    // Protected paths the hook created are moved out of the project; say so where hook errors go.
    const undone = (await launch?.settle()) ?? []
    return {
      code: exit.code,
      signal: exit.signal,
      stdout: stdout.text(),
      stderr: [stderr.text(), ...undone].filter((text) => text !== '').join('\n'),
      timedOut,
      aborted,
      ...(startError ? { error: startError } : {}),
      ...(left ? { processesLeft: left } : {}),
    }
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
    await launch?.dispose()
  }
}
