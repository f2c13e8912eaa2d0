import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import type { Socket } from 'node:net'
import { basename } from 'node:path'
import { RelayedChild, spawnError, type SpawnFailure } from './relayed-child'
import { LAUNCHER_SOURCE } from './source'

export type StdioKind = 'pipe' | 'ignore' | 'inherit'

export interface LaunchRequest {
  file: string
  args: readonly string[]
  cwd?: string
  /** The whole environment of the child (the launcher's own is not used). */
  env: NodeJS.ProcessEnv
  detached: boolean
  stdio: readonly [StdioKind, StdioKind, StdioKind]
  argv0?: string
}

type Incoming =
  | { type: 'ready'; dir: string }
  | { type: 'pipe'; id: number }
  | { type: 'poolError'; error: SpawnFailure }
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'failed'; id: number; error: SpawnFailure }
  | { type: 'error'; id: number; error: SpawnFailure }
  | { type: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }

interface Pending {
  request: LaunchRequest
  child: RelayedChild
  pipes: (Socket | undefined)[]
  resolve: (child: RelayedChild) => void
}

interface PoolPipe {
  id: number
  socket: Socket
}

/** Socket pairs the launcher keeps ready: enough for a few commands started at once. */
const POOL_SIZE = 12

/** How often a child is looked for once the launcher that would report its exit is gone. */
const ORPHAN_POLL_MS = 200

/**
 * Starts processes from a small, long-lived Node process (see `source.ts`) instead of forking this
 * one. `spawn()` resolves once the child runs (pid known) or failed to start (its `error` follows),
 * or with undefined when the launcher was gone before the request went out.
 * If the launcher is gone — it crashed, was killed, or could not start — `available` turns false
 * (callers then spawn directly) and `onLost` is told once; children it had started keep their pipes,
 * and their exit is detected by polling their pid (code and signal are then unknown: null).
 */
export class ProcessLauncher {
  private process: ChildProcess | undefined
  private lost = false
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private readonly running = new Map<number, RelayedChild>()
  private readonly referenced = new Set<RelayedChild>()
  private readonly pool: PoolPipe[] = []
  private readonly poolWaiters: (() => void)[] = []
  /** The launcher's private folder (its listening socket), removed here when it could not do so itself. */
  private folder: string | undefined

  constructor(private readonly options: { nodePath?: string; onLost?: (reason: string) => void } = {}) {}

  /** Starts the launcher process (idempotent); best done early, while this process is still small. */
  start(): void {
    if (this.process || this.lost) return
    const env = { ...process.env }
    // The launcher needs none of the owner's Node flags (an inspector port, loaders, profilers).
    delete env.NODE_OPTIONS
    const child = spawn(this.options.nodePath ?? process.execPath, ['-e', LAUNCHER_SOURCE, String(POOL_SIZE)], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env,
      windowsHide: true,
    })
    this.process = child
    child.unref()
    child.channel?.unref()
    child.on('message', (message: Incoming, handle: unknown) => this.receive(message, handle))
    child.once('error', (error) => this.lose(`it could not start: ${error.message}`))
    child.once('exit', (code, signal) => this.lose(signal ? `it was ended by ${signal}` : `it exited with code ${code}`))
  }

  get available(): boolean {
    return !this.lost && this.process !== undefined && this.process.connected
  }

  get pid(): number | undefined {
    return this.process?.pid
  }

  /** Undefined when the launcher is gone before the request could be sent (nothing was started). */
  async spawn(request: LaunchRequest): Promise<RelayedChild | undefined> {
    const taken = await this.takePipes(request.stdio.filter((kind) => kind === 'pipe').length)
    const launcher = this.process
    if (!taken || !launcher || !this.available) {
      for (const pipe of taken ?? []) pipe.socket.destroy()
      return undefined
    }
    const pipes = request.stdio.map((kind) => (kind === 'pipe' ? taken.shift() : undefined))
    const id = this.nextId++
    const child = new RelayedChild({
      kill: (signal) => this.kill(id, child, signal),
      setRef: (target, ref) => this.setRef(target, ref),
    })
    this.setRef(child, true)
    return new Promise((resolve) => {
      this.pending.set(id, { request, child, pipes: pipes.map((pipe) => pipe?.socket), resolve })
      launcher.send({ type: 'spawn', id, ...request, pipes: pipes.map((pipe) => pipe?.id ?? null) })
    })
  }

  /** `count` pipes from the pool, at once normally (it is refilled after each spawn), else once they arrive. */
  private async takePipes(count: number): Promise<PoolPipe[] | undefined> {
    while (this.pool.length < count) {
      if (!this.available) return undefined
      // Waiting for the launcher keeps this process alive, as a spawn would.
      const arrived = new Promise<void>((resolve) => this.poolWaiters.push(resolve))
      this.refreshRef()
      await arrived
      this.refreshRef()
    }
    // Taken in the same step as the check: another spawn waiting for pipes must not take them in between.
    return this.pool.splice(0, count)
  }

  private wakePoolWaiters(): void {
    for (const wake of this.poolWaiters.splice(0)) wake()
  }

  /** Lets the launcher go: it exits once its channel closes; the processes it started keep running. */
  async dispose(): Promise<void> {
    const launcher = this.process
    if (!launcher || launcher.exitCode !== null || launcher.signalCode !== null) return
    const exited = new Promise<void>((resolve) => launcher.once('exit', () => resolve()))
    // Unreferenced while idle; now its exit is awaited.
    launcher.ref()
    this.lost = true
    this.failPending('the process launcher was stopped')
    if (launcher.connected) launcher.disconnect()
    // A disconnect waits for handles in flight to be acknowledged, which no longer happens: say it plainly.
    launcher.kill('SIGTERM')
    await exited
  }

  private receive(message: Incoming, handle: unknown): void {
    if (message.type === 'ready') {
      this.folder = message.dir
      return
    }
    if (message.type === 'pipe') {
      const socket = handle as Socket
      // An idle pool pipe must not keep this process alive.
      socket.unref()
      this.pool.push({ id: message.id, socket })
      this.wakePoolWaiters()
      return
    }
    if (message.type === 'poolError') {
      this.process?.kill()
      this.lose(`it could not make pipes: ${message.error.message}`)
      return
    }
    if (message.type === 'spawned') {
      const pending = this.pending.get(message.id)
      if (!pending) return
      this.pending.delete(message.id)
      pending.child.attach(message.pid, pending.pipes)
      this.running.set(message.id, pending.child)
      pending.resolve(pending.child)
      return
    }
    if (message.type === 'failed') {
      const pending = this.pending.get(message.id)
      if (!pending) return
      this.pending.delete(message.id)
      this.setRef(pending.child, false)
      for (const pipe of pending.pipes) pipe?.destroy()
      pending.child.fail(spawnError(message.error, pending.request.file, pending.request.args))
      pending.resolve(pending.child)
      return
    }
    const child = this.running.get(message.id)
    if (!child) return
    if (message.type === 'error') {
      child.signalFailed(Object.assign(new Error(message.error.message), message.error))
      return
    }
    this.running.delete(message.id)
    this.setRef(child, false)
    child.exit(message.code, message.signal)
  }

  private kill(id: number, child: RelayedChild, signal: NodeJS.Signals | number): void {
    if (this.available && this.process) {
      this.process.send({ type: 'kill', id, signal })
      return
    }
    // Nobody reaps it for us any more: signal the pid itself while it is there.
    if (child.pid !== undefined) signalOrphan(child.pid, signal)
  }

  /** The launcher's channel keeps this process alive while a referenced child runs, as the child's own handle would. */
  private setRef(child: RelayedChild, ref: boolean): void {
    if (ref && !child.hasExited) this.referenced.add(child)
    else this.referenced.delete(child)
    this.refreshRef()
  }

  private refreshRef(): void {
    const channel = this.process?.channel
    if (!channel) return
    if (this.referenced.size > 0 || this.poolWaiters.length > 0) channel.ref()
    else channel.unref()
  }

  private failPending(reason: string): void {
    for (const [id, pending] of this.pending) {
      this.pending.delete(id)
      this.setRef(pending.child, false)
      for (const pipe of pending.pipes) pipe?.destroy()
      // Whether it started is unknown, so it is not started again directly: that could run it twice.
      pending.child.fail(Object.assign(new Error(`${reason} before ${pending.request.file} was known to run`), { code: 'ELAUNCHER' }))
      pending.resolve(pending.child)
    }
  }

  private lose(reason: string): void {
    if (this.lost && this.pending.size === 0 && this.running.size === 0) return
    const announce = !this.lost
    this.lost = true
    this.failPending('the process launcher exited')
    for (const [id, child] of this.running) {
      this.running.delete(id)
      watchOrphan(child, () => this.setRef(child, false))
    }
    for (const pipe of this.pool.splice(0)) pipe.socket.destroy()
    this.wakePoolWaiters()
    if (this.folder && basename(this.folder).startsWith('hotaru-launch-')) rmSync(this.folder, { recursive: true, force: true })
    if (announce) this.options.onLost?.(reason)
  }
}

function signalOrphan(pid: number, signal: NodeJS.Signals | number): void {
  try {
    process.kill(pid, signal)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** A child whose launcher died: once its pid is gone it has exited, with code and signal unknown. */
function watchOrphan(child: RelayedChild, done: () => void): void {
  const pid = child.pid
  const check = (): void => {
    if (pid !== undefined && alive(pid)) {
      // Whoever waits for it holds the loop open already (its pipes, a server): the poll need not.
      setTimeout(check, ORPHAN_POLL_MS).unref()
      return
    }
    done()
    child.exit(null, null)
  }
  check()
}
