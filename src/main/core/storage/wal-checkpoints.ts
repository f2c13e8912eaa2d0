import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import type { Db } from './database'
import type { WalWorkerData, WalWorkerMessage, WalWorkerRequest } from './wal-protocol'
import { log } from '../util/log'
import { workerUrl } from '../util/worker-url'

/** The WAL checkpoint thread's entry in both builds, next to the bundle's entry. */
export const WAL_WORKER_FILE = 'wal-worker.js'

/** SQLite's own automatic checkpoint size: 1000 pages of 4 KiB. */
const DEFAULT_THRESHOLD_BYTES = 4 * 1024 * 1024
const DEFAULT_EVERY_MS = 1_000
const SQLITE_AUTOCHECKPOINT_PAGES = 1000

export interface WalCheckpointsOptions {
  thresholdBytes?: number
  everyMs?: number
}

/**
 * Where the database serves a UI (the desktop app, `serve`), its write-ahead log is copied back into
 * the database file by a thread of its own (`wal-worker.ts`) instead of by whichever commit of the
 * main connection crosses SQLite's threshold: that commit then flushed both files to disk on the
 * event loop (36 ms measured during a turn on a busy disk, more on a slow one). The main
 * connection's automatic checkpoints are off while the thread runs; if the thread fails or ends,
 * they are turned back on, so the log never grows without bound. Closing the database checkpoints
 * what is left, as SQLite always does.
 */
export class WalCheckpoints {
  private worker: Worker | null
  private stopping = false
  private readonly waiting: Array<(message: WalWorkerMessage) => void> = []

  constructor(
    private readonly db: Db,
    options: WalCheckpointsOptions = {},
  ) {
    const workerData: WalWorkerData = {
      file: db.name,
      thresholdBytes: options.thresholdBytes ?? DEFAULT_THRESHOLD_BYTES,
      everyMs: options.everyMs ?? DEFAULT_EVERY_MS,
    }
    db.pragma('wal_autocheckpoint = 0')
    const worker = new Worker(workerUrl(import.meta.url, WAL_WORKER_FILE, 'wal-worker.ts'), { name: 'hotaru-wal', workerData })
    this.worker = worker
    // Never what keeps a process alive.
    worker.unref()
    worker.on('message', (message: WalWorkerMessage) => {
      if (message.type === 'failed') log.warn(`[storage] a background checkpoint of ${db.name} failed: ${message.message}`)
      for (const resolve of this.waiting.splice(0)) resolve(message)
    })
    worker.on('error', (error) => this.fallBack(error.message))
    worker.on('exit', (code) => {
      if (!this.stopping) this.fallBack(`it exited with code ${code}`)
    })
  }

  /** Whether checkpoints run in the background thread (false once it failed). */
  get running(): boolean {
    return this.worker !== null
  }

  /** A checkpoint now, whatever the log's size; resolves with what the thread reported. */
  checkpointNow(): Promise<WalWorkerMessage> {
    const worker = this.worker
    if (!worker) return Promise.reject(new Error('background checkpoints are not running'))
    return new Promise((resolve) => {
      this.waiting.push(resolve)
      worker.postMessage({ type: 'checkpoint' } satisfies WalWorkerRequest)
    })
  }

  async dispose(): Promise<void> {
    const worker = this.worker
    this.stopping = true
    this.worker = null
    if (!worker) return
    const exited = once(worker, 'exit')
    // Held while it stops: an unreferenced thread would let the process end (with code 0) before the caller goes on.
    worker.ref()
    worker.postMessage({ type: 'stop' } satisfies WalWorkerRequest)
    await exited
  }

  private fallBack(why: string): void {
    if (!this.worker) return
    this.worker = null
    log.warn(`[storage] background checkpoints of ${this.db.name} stopped (${why}); the database checkpoints on its own again`)
    for (const resolve of this.waiting.splice(0)) resolve({ type: 'failed', message: why })
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`)
  }
}
