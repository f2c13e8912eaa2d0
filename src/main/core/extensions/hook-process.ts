import { spawn } from 'node:child_process'
import type { CommandSandbox, SandboxLaunch } from '../sandbox/sandbox'
import { killTree, waitForExit } from '../tools/bash/process-tree'
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
}

function collector(): { push(chunk: Buffer): void; text(): string } {
  const chunks: Buffer[] = []
  let size = 0
  let dropped = 0
  return {
    push(chunk) {
      const room = HOOK_OUTPUT_CAP - size
      if (room <= 0) {
        dropped += chunk.length
        return
      }
      chunks.push(chunk.subarray(0, room))
      size += Math.min(room, chunk.length)
      dropped += Math.max(0, chunk.length - room)
    },
    text() {
      const text = Buffer.concat(chunks).toString('utf8')
      return dropped > 0 ? `${text}\n[… ${dropped} more bytes not kept]` : text
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
  let child: ReturnType<typeof spawn>
  let launch: SandboxLaunch | undefined
  try {
    launch = options.sandbox ? await options.sandbox.wrap(['/bin/sh', '-c', command], { cwd: options.cwd, env: options.env }) : undefined
    const spawnOptions = { cwd: options.cwd, detached: process.platform !== 'win32', windowsHide: true, stdio: ['pipe', 'pipe', 'pipe'] as const }
    child = launch
      ? spawn(launch.command, launch.args, { ...spawnOptions, env: launch.env, stdio: ['pipe', 'pipe', 'pipe', ...launch.stdio] })
      : spawn(command, { ...spawnOptions, shell: true, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] })
    launch?.started(child)
  } catch (error) {
    await launch?.dispose()
    return { ...base, aborted: false, error: `could not start: ${errorMessage(error)}` }
  }
  const stdout = collector()
  const stderr = collector()
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk))
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk))
  let startError: string | undefined
  child.once('error', (error) => {
    startError = `could not start: ${error.message}`
  })
  child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
    // EPIPE: the hook exited without reading its input, which hooks are free to do.
    if (error.code !== 'EPIPE') startError ??= `could not write the hook's input: ${error.message}`
  })
  child.stdin?.end(input)

  let timedOut = false
  let aborted = false
  let killing: Promise<void> | undefined
  const kill = (): void => {
    if (killing || child.pid === undefined) return
    killing = killTree(child.pid, KILL_GRACE_MS)
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
  try {
    const exit = await waitForExit(child)
    await killing
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
    }
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
    await launch?.dispose()
  }
}
