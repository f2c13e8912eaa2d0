/**
 * Entry of the WAL checkpoint thread (`wal-checkpoints.ts`): its own connection to the database,
 * which copies the write-ahead log back into the database file once the log has grown past a
 * threshold. A checkpoint flushes both files to disk (two `fsync`s, tens of milliseconds on a busy
 * disk and more on a slow one): here that waits in this thread, not on the event loop that writes
 * the transcript and serves the window. PASSIVE: it never waits for the main connection, which
 * keeps writing meanwhile.
 */
import Database from 'better-sqlite3'
import { statSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import type { WalWorkerData, WalWorkerMessage, WalWorkerRequest } from './wal-protocol'

const host = parentPort
if (!host) throw new Error('the WAL checkpoint worker must run in a worker thread')
const { file, thresholdBytes, everyMs } = workerData as WalWorkerData
const post = (message: WalWorkerMessage): void => host.postMessage(message)

const db = new Database(file, { fileMustExist: true })

function walBytes(): number {
  try {
    return statSync(`${file}-wal`).size
  } catch (error) {
    // No log at all: nothing to copy back.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw error
  }
}

function checkpoint(force: boolean): void {
  try {
    if (!force && walBytes() < thresholdBytes) return
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>
    post({ type: 'checkpointed', frames: result?.checkpointed ?? 0, logFrames: result?.log ?? 0 })
  } catch (error) {
    post({ type: 'failed', message: (error as Error).message })
  }
}

const timer = setInterval(() => checkpoint(false), everyMs)

host.on('message', (request: WalWorkerRequest) => {
  if (request.type === 'checkpoint') checkpoint(true)
  if (request.type === 'stop') {
    clearInterval(timer)
    db.close()
    host.close()
  }
})
