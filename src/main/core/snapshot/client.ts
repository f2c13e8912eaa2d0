import { HotaruError, isErrorName } from '@shared/errors'
import { resolve } from 'node:path'
import { Worker, type MessagePort } from 'node:worker_threads'
import type { SnapshotOptions } from './snapshot-engine'
import type { SnapshotEngineOptions, SnapshotResult } from './types'
import { snapshotWorkerUrl } from './worker-entry'
import type { SerializedError, SnapshotOpName, SnapshotOps, SnapshotRequest, SnapshotWorkerMessage } from './worker-protocol'

/** The worker ended (crashed, ran out of its heap cap, was terminated) while calls were pending. */
export const SnapshotWorkerFailed = 'SnapshotWorkerFailed'

/** Heap cap of a snapshot worker: a runaway watcher or walk ends that thread, not the app. */
const DEFAULT_MAX_HEAP_MB = 512
/**
 * A walk allocates short-lived garbage per file; V8's default young generation let it grow
 * by ~45 MB of resident memory on a 40k-file tree, with no measurable gain in speed.
 */
const YOUNG_GENERATION_MB = 8

export interface SnapshotClientOptions extends SnapshotEngineOptions {
  maxHeapMb?: number
  /** Diagnostics of the worker (change feed errors, restarts). */
  onLog?: (level: 'warn' | 'debug', message: string) => void
  /**
   * The host has a UI whose event loop must stay responsive (the desktop app, `serve`): the worker
   * runs at a lower scheduling priority, taking the CPU only when the main thread does not want it.
   */
  background?: boolean
}

interface Pending {
  resolve(value: unknown): void
  reject(error: Error): void
}

type Call<K extends SnapshotOpName> = (...args: SnapshotOps[K][0]) => Promise<SnapshotOps[K][1]>

/**
 * The snapshot engine of one project, hosted in a worker thread: the same operations as
 * `SnapshotEngine`, as promises, so hashing a large tree never blocks the event loop that
 * carries IPC, streams and terminals. Calls run in the order they are made. If the worker dies
 * its pending calls fail with `SnapshotWorkerFailed`; the next call starts a fresh one (whose
 * first snapshot walks the tree, so nothing is missed) and restarts the change feed if it ran.
 */
export class SnapshotClient {
  readonly root: string
  readonly storeDir: string
  private worker: Worker | null = null
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private watchWanted = false
  /** Where the feed's changes come from (see `watch`); absent: a watch of the worker's own. */
  private openFeed: (() => MessagePort) | undefined
  private disposed = false
  /** Element 0: walks with a ticket up to this number stop (shared with every worker this client starts). */
  private readonly walkStop = new Int32Array(new SharedArrayBuffer(4))
  private walkTickets = 0

  constructor(private readonly options: SnapshotClientOptions) {
    this.root = resolve(options.root)
    this.storeDir = resolve(options.storeDir)
  }

  /**
   * `stoppable`: a walk that `stopWalks()` may end before it is done, even while the worker is busy
   * with it (it then fails with `SnapshotWalkStopped`, keeping what it hashed for the next walk).
   */
  readonly snapshot = (options: SnapshotOptions & { stoppable?: boolean } = {}): Promise<SnapshotResult> => {
    const { stoppable, ...rest } = options
    return this.call('snapshot', stoppable ? { ...rest, stopTicket: ++this.walkTickets } : rest)
  }
  readonly scopedSnapshot: Call<'scopedSnapshot'> = (...args) => this.call('scopedSnapshot', ...args)
  readonly withPreImages: Call<'withPreImages'> = (...args) => this.call('withPreImages', ...args)
  readonly markDirty: Call<'markDirty'> = (...args) => this.call('markDirty', ...args)
  readonly markAllDirty: Call<'markAllDirty'> = () => this.call('markAllDirty')
  /** After a change nobody listed (shell, MCP): lets a live feed catch up, else the next snapshot walks all. */
  readonly settleAfterUnlistedChange: Call<'settleAfterUnlistedChange'> = () => this.call('settleAfterUnlistedChange')
  readonly changeFeed: Call<'changeFeed'> = () => this.call('changeFeed')
  readonly exists: Call<'exists'> = (...args) => this.call('exists', ...args)
  readonly manifest: Call<'manifest'> = (...args) => this.call('manifest', ...args)
  readonly diff: Call<'diff'> = (...args) => this.call('diff', ...args)
  readonly fileVersions: Call<'fileVersions'> = (...args) => this.call('fileVersions', ...args)
  readonly preview: Call<'preview'> = (...args) => this.call('preview', ...args)
  readonly restore: Call<'restore'> = (...args) => this.call('restore', ...args)
  readonly recover: Call<'recover'> = (...args) => this.call('recover', ...args)
  readonly usage: Call<'usage'> = (...args) => this.call('usage', ...args)
  readonly gc: Call<'gc'> = (...args) => this.call('gc', ...args)
  readonly materialize: Call<'materialize'> = (...args) => this.call('materialize', ...args)
  readonly compareDir: Call<'compareDir'> = (...args) => this.call('compareDir', ...args)
  readonly filesLeftOutMatching: Call<'filesLeftOutMatching'> = (...args) => this.call('filesLeftOutMatching', ...args)
  readonly forgetCopy: Call<'forgetCopy'> = (...args) => this.call('forgetCopy', ...args)
  readonly comparePaths: Call<'comparePaths'> = (...args) => this.call('comparePaths', ...args)
  readonly entries: Call<'entries'> = (...args) => this.call('entries', ...args)

  /**
   * Starts the change feed inside the worker; resolves once it is live. Snapshots meanwhile walk the
   * tree, so nothing waits for it. `openFeed` gives a port of the project's watch (asked again for
   * a replacement worker), whose changes then go from that watch's thread to this worker's without
   * passing through this one; without it the worker runs a watch of its own.
   */
  async watch(openFeed?: () => MessagePort): Promise<void> {
    this.watchWanted = true
    this.openFeed = openFeed
    await this.startFeed()
  }

  /** Stops every stoppable walk asked for so far, at its next check (every few hundred files). Later ones run whole. */
  stopWalks(): void {
    Atomics.store(this.walkStop, 0, this.walkTickets)
    Atomics.notify(this.walkStop, 0)
  }

  /** Ends the change feed (closing the watcher cleanly) and the worker, after the calls already made. */
  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    const worker = this.worker
    if (!worker) return
    try {
      if (this.watchWanted) await this.send('unwatch', [])
    } finally {
      this.worker = null
      await worker.terminate()
    }
  }

  private async startFeed(): Promise<void> {
    if (this.disposed) return this.call('watch')
    const port = this.openFeed?.()
    await (port ? this.send('watch', [port], [port]) : this.send('watch', []))
  }

  private call<K extends SnapshotOpName>(op: K, ...args: SnapshotOps[K][0]): Promise<SnapshotOps[K][1]> {
    if (this.disposed) {
      return Promise.reject(new HotaruError(SnapshotWorkerFailed, { message: `the snapshot engine of ${this.root} was closed` }))
    }
    return this.send(op, args) as Promise<SnapshotOps[K][1]>
  }

  private send(op: SnapshotOpName, args: unknown[], transfer: MessagePort[] = []): Promise<unknown> {
    let worker = this.worker
    if (!worker) {
      worker = this.spawn()
      // A replacement worker gets the feed back; its first snapshot walks the tree meanwhile.
      if (this.watchWanted && op !== 'watch' && op !== 'unwatch') {
        const { onLog } = this.options
        this.startFeed().catch((error: unknown) => onLog?.('warn', `change feed not restarted: ${(error as Error).message}`))
      }
    }
    const id = this.nextId++
    // The worker keeps the process alive only while a call waits for it.
    if (this.pending.size === 0) worker.ref()
    const request: SnapshotRequest = { id, op, args }
    return new Promise((resolvePromise, reject) => {
      this.pending.set(id, { resolve: resolvePromise, reject })
      worker.postMessage(request, transfer)
    })
  }

  private spawn(): Worker {
    const { maxHeapMb, onLog, ...engineOptions } = this.options
    const worker = new Worker(snapshotWorkerUrl(), {
      workerData: { ...engineOptions, root: this.root, storeDir: this.storeDir, walkStop: this.walkStop },
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb ?? DEFAULT_MAX_HEAP_MB, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      name: 'hotaru-snapshot',
    })
    worker.unref()
    worker.on('message', (message: SnapshotWorkerMessage) => {
      if (message.type === 'log') {
        onLog?.(message.level, message.message)
        return
      }
      const pending = this.pending.get(message.id)
      if (!pending) return
      this.pending.delete(message.id)
      if (this.pending.size === 0) worker.unref()
      if (message.ok) pending.resolve(message.value)
      else pending.reject(deserialize(message.error))
    })
    const fail = (reason: string): void => {
      if (this.worker === worker) this.worker = null
      const calls = [...this.pending.values()]
      this.pending.clear()
      for (const call of calls) call.reject(new HotaruError(SnapshotWorkerFailed, { message: `the snapshot worker of ${this.root} ${reason}` }))
      if (!this.disposed) onLog?.('warn', `snapshot worker ${reason}`)
    }
    worker.on('error', (error) => fail(`failed: ${error.message}`))
    worker.on('exit', (code) => fail(`exited (code ${code})`))
    this.worker = worker
    return worker
  }
}

function deserialize(error: SerializedError): Error {
  if (error.data && isErrorName(error.name)) return HotaruError.from({ name: error.name, data: error.data })
  const plain = new Error(error.message)
  plain.name = error.name
  if (error.stack) plain.stack = error.stack
  return plain
}
