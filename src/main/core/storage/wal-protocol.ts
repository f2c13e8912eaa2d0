/** What the WAL checkpoint thread is started with (`wal-worker.ts`). */
export interface WalWorkerData {
  /** The database file; its log is `<file>-wal`. */
  file: string
  /** A checkpoint runs once the log is at least this large. */
  thresholdBytes: number
  /** How often the log's size is looked at. */
  everyMs: number
}

export type WalWorkerRequest = { type: 'checkpoint' } | { type: 'stop' }

export type WalWorkerMessage = { type: 'checkpointed'; frames: number; logFrames: number } | { type: 'failed'; message: string }
