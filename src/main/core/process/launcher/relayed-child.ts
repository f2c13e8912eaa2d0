import { EventEmitter } from 'node:events'
import type { Socket } from 'node:net'
import type { Readable, Writable } from 'node:stream'

/**
 * What callers use of a started process; Node's `ChildProcess` has this shape, and so has a
 * process started through the launcher (`RelayedChild`).
 */
export interface StartedProcess extends EventEmitter {
  readonly pid?: number | undefined
  readonly stdin: Writable | null
  readonly stdout: Readable | null
  readonly stderr: Readable | null
  readonly exitCode: number | null
  readonly signalCode: NodeJS.Signals | null
  readonly killed: boolean
  kill(signal?: NodeJS.Signals | number): boolean
  ref(): void
  unref(): void
}

/** A start failure as the launcher reports it: the fields of Node's spawn error. */
export interface SpawnFailure {
  message: string
  code?: string
  errno?: number
  syscall?: string
  path?: string
}

export function spawnError(failure: SpawnFailure, file: string, args: readonly string[]): NodeJS.ErrnoException & { spawnargs: string[] } {
  return Object.assign(new Error(failure.message), {
    ...(failure.code !== undefined ? { code: failure.code } : {}),
    ...(failure.errno !== undefined ? { errno: failure.errno } : {}),
    syscall: failure.syscall ?? `spawn ${file}`,
    path: failure.path ?? file,
    spawnargs: [...args],
  })
}

/** What a relayed child needs from its launcher. */
export interface RelayControl {
  kill(signal: NodeJS.Signals | number): void
  /** The child keeps (or stops keeping) the owner's event loop alive until it exits. */
  setRef(child: RelayedChild, ref: boolean): void
}

/**
 * A process the launcher started, seen from the process that asked for it: the child's pipes are
 * real sockets here (handed over by the launcher), exit and signals travel over the launcher's
 * channel. Events follow Node's ChildProcess: `spawn`, `exit(code, signal)`, `close(code, signal)`
 * once exited and stdout/stderr are closed, `error` for a start failure or a signal that could not
 * be sent. They are emitted from a later turn of the loop than the one that hands the child out,
 * so listeners attached right after `await` see all of them.
 */
export class RelayedChild extends EventEmitter implements StartedProcess {
  pid: number | undefined
  stdin: Socket | null = null
  stdout: Socket | null = null
  stderr: Socket | null = null
  exitCode: number | null = null
  signalCode: NodeJS.Signals | null = null
  killed = false
  private exited = false
  private closesNeeded = 1
  private referenced = true

  constructor(private readonly control: RelayControl) {
    super()
  }

  /** The launcher started it: its pid and its pipes (by fd; absent for `ignore`/`inherit`). */
  attach(pid: number, pipes: readonly (Socket | undefined)[]): void {
    this.pid = pid
    const [stdin, stdout, stderr] = pipes
    this.stdin = stdin ?? null
    this.stdout = stdout ?? null
    this.stderr = stderr ?? null
    // The stdin socket is only written; its read side would only ever see EOF.
    for (const readable of [this.stdout, this.stderr]) {
      // A pipe of a child that already exited may have reached its end (no data, EOF) before now.
      if (!readable || readable.closed) continue
      this.closesNeeded++
      readable.once('close', () => this.maybeClose())
    }
    // Pool pipes arrive unreferenced; a child's pipes hold the loop as Node's own do (until `unref()`).
    for (const pipe of [this.stdin, this.stdout, this.stderr]) {
      if (this.referenced) pipe?.ref()
      else pipe?.unref()
    }
    setImmediate(() => this.emit('spawn'))
  }

  /** It never started (ENOENT, EACCES…): `error`, then `close` as Node reports it. */
  fail(error: NodeJS.ErrnoException): void {
    this.exited = true
    this.exitCode = error.errno ?? -1
    setImmediate(() => {
      this.emit('error', error)
      this.emit('close', this.exitCode, null)
    })
  }

  /** A signal could not be sent (EPERM…): reported as Node does, with `error`. */
  signalFailed(error: NodeJS.ErrnoException): void {
    setImmediate(() => this.emit('error', error))
  }

  exit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) return
    this.exited = true
    this.exitCode = code
    this.signalCode = signal
    setImmediate(() => {
      this.stdin?.destroy()
      this.emit('exit', code, signal)
      // As Node does at exit: output nobody reads is drained and dropped, so `close` can follow.
      for (const readable of [this.stdout, this.stderr]) {
        if (readable && readable.listenerCount('data') === 0 && readable.listenerCount('readable') === 0) readable.resume()
      }
      this.maybeClose()
    })
  }

  get hasExited(): boolean {
    return this.exited
  }

  kill(signal: NodeJS.Signals | number = 'SIGTERM'): boolean {
    if (this.exited || this.pid === undefined) return false
    this.control.kill(signal)
    this.killed = true
    return true
  }

  ref(): void {
    this.referenced = true
    for (const pipe of [this.stdin, this.stdout, this.stderr]) pipe?.ref()
    this.control.setRef(this, true)
  }

  unref(): void {
    this.referenced = false
    this.unrefPipes()
    this.control.setRef(this, false)
  }

  get isReferenced(): boolean {
    return this.referenced
  }

  private unrefPipes(): void {
    for (const pipe of [this.stdin, this.stdout, this.stderr]) pipe?.unref()
  }

  private maybeClose(): void {
    if (--this.closesNeeded > 0) return
    this.emit('close', this.exitCode, this.signalCode)
  }
}
