import { spawn, type StdioOptions } from 'node:child_process'
import type { Readable } from 'node:stream'
import type { ProcessLauncher, StdioKind } from './launcher/launcher'
import type { StartedProcess } from './launcher/relayed-child'

export type { StartedProcess } from './launcher/relayed-child'

/**
 * The one way the core starts a short- or long-lived process on the hot path (bash, git, rg, the
 * login shell). With a launcher in use (`hotaru serve`) the process is started by it, so this
 * process is not forked; without one (the CLI, the desktop app, Windows), or when the options need
 * what only a direct spawn gives (extra fds, an IPC channel), or once the launcher is gone, it is
 * Node's own `spawn`. Either way the result behaves as a `ChildProcess`: same events, exit codes,
 * signals, pipes, process group (`detached`), environment.
 */
export interface StartOptions {
  cwd?: string
  /** Default: this process's environment at the time of the call. */
  env?: NodeJS.ProcessEnv
  detached?: boolean
  /** stdin, stdout, stderr (default all `pipe`). */
  stdio?: readonly [StdioKind, StdioKind, StdioKind]
  /** Entries from fd 3 on (a sandbox's seccomp program, `ipc`): these always spawn directly. */
  extraStdio?: Extract<StdioOptions, readonly unknown[]>
  /** Aborting kills the process with SIGTERM and emits an `AbortError`, as Node's `signal` option does. */
  signal?: AbortSignal
}

let launcher: ProcessLauncher | undefined

/** Starts processes through `next` from now on (undefined: directly). */
export function useProcessLauncher(next: ProcessLauncher | undefined): void {
  launcher = next
}

export function processLauncher(): ProcessLauncher | undefined {
  return launcher
}

export async function startProcess(file: string, args: readonly string[], options: StartOptions = {}): Promise<StartedProcess> {
  const stdio = options.stdio ?? ['pipe', 'pipe', 'pipe']
  const env = options.env ?? process.env
  options.signal?.throwIfAborted()
  const direct = (): StartedProcess =>
    spawn(file, [...args], {
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      env,
      detached: options.detached ?? false,
      stdio: [...stdio, ...(options.extraStdio ?? [])],
    })
  const viaLauncher = launcher?.available === true && process.platform !== 'win32' && (options.extraStdio?.length ?? 0) === 0
  // The launcher went away before the request was sent: nothing ran, so it is started here.
  const child =
    (viaLauncher && launcher
      ? await launcher.spawn({ file, args: [...args], ...(options.cwd !== undefined ? { cwd: options.cwd } : {}), env: { ...env }, detached: options.detached ?? false, stdio })
      : undefined) ?? direct()
  if (options.signal) abortWith(child, options.signal)
  return child
}

/**
 * Aborting `signal` kills the process with SIGTERM and emits an `AbortError`, as Node's `signal`
 * option does, but never before the caller got the process: an abort while `startProcess` was
 * resolving would otherwise emit `error` before anyone listened, and end the process.
 */
function abortWith(child: StartedProcess, signal: AbortSignal): void {
  const onAbort = (): void =>
    void setImmediate(() => {
      if (child.kill('SIGTERM')) child.emit('error', abortError(signal))
    })
  if (signal.aborted) onAbort()
  else {
    signal.addEventListener('abort', onAbort, { once: true })
    child.once('exit', () => signal.removeEventListener('abort', onAbort))
  }
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' })
}

export interface RunFileOptions {
  cwd?: string
  env?: NodeJS.ProcessEnv
  /** Kill with SIGTERM after this long; the error then has `killed: true`. */
  timeout?: number
  /** Characters of stdout or stderr beyond which the process is killed and the run fails. Default 1 MiB. */
  maxBuffer?: number
  signal?: AbortSignal
}

/** An error as `execFile` reports it: exit code (or errno name) in `code`. */
export type RunFileError = Error & { code?: number | string | null; killed?: boolean; signal?: NodeJS.Signals | null; cmd?: string }

export interface RunFileResult {
  stdout: string
  stderr: string
  /** Null when the command ran and exited 0. */
  error: RunFileError | null
}

/** `execFile` with UTF-8 output, through `startProcess`: never rejects, failures are in `error`. */
export async function runFile(file: string, args: readonly string[], options: RunFileOptions = {}): Promise<RunFileResult> {
  const cmd = [file, ...args].join(' ')
  let child: StartedProcess
  try {
    child = await startProcess(file, args, {
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.env ? { env: options.env } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.signal ? { signal: options.signal } : {}),
    })
  } catch (error) {
    return { stdout: '', stderr: '', error: error as RunFileError }
  }
  const maxBuffer = options.maxBuffer ?? 1024 * 1024
  return new Promise((resolve) => {
    let stdout = ''
    let stderr = ''
    let failure: RunFileError | undefined
    let timedOut = false
    const fail = (error: RunFileError): void => {
      failure ??= error
      child.kill('SIGTERM')
    }
    const collect = (stream: Readable | null, name: 'stdout' | 'stderr'): void => {
      if (!stream) return
      stream.setEncoding('utf8')
      stream.on('data', (chunk: string) => {
        const length = (name === 'stdout' ? stdout : stderr).length + chunk.length
        if (length > maxBuffer) {
          fail(Object.assign(new RangeError(`${name} maxBuffer length exceeded`), { code: 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' }))
          return
        }
        if (name === 'stdout') stdout += chunk
        else stderr += chunk
      })
    }
    collect(child.stdout, 'stdout')
    collect(child.stderr, 'stderr')
    const timer =
      options.timeout && options.timeout > 0
        ? setTimeout(() => {
            timedOut = true
            child.kill('SIGTERM')
          }, options.timeout)
        : undefined
    child.once('error', (error: RunFileError) => {
      failure ??= error
    })
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer)
      if (failure) return resolve({ stdout, stderr, error: failure })
      if (code === 0 && signal === null) return resolve({ stdout, stderr, error: null })
      const error: RunFileError = Object.assign(new Error(`Command failed: ${cmd}\n${stderr}`), {
        code,
        killed: child.killed || timedOut,
        signal,
        cmd,
      })
      resolve({ stdout, stderr, error })
    })
  })
}
