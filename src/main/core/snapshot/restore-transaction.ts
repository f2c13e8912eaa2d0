import type { JournalOp } from './restore-journal'
import type { RestorePreview, RestoreResult } from './restore-types'

export interface RestoreTransactionHooks {
  /** Applies op `index` to the working tree and the stat index. */
  apply(op: JournalOp, index: number): void
  /** Every op is applied: drop the journal, release the store. */
  commit(): void
  /** A step failed: roll back what was applied, release the store; returns the error to throw. */
  abort(error: unknown): Error
  /** The caller gave up: roll back what was applied, release the store. */
  cancel(): void
}

/**
 * A restore in progress: the preview is fixed, the journal is on disk, and ops are applied
 * one `step()` at a time (so a caller can report progress). `SnapshotEngine.restore()` runs
 * one to the end; if the process dies midway, `recover()` finishes the job at next start.
 */
export class RestoreTransaction {
  private next = 0
  private status: 'open' | 'committed' | 'aborted' = 'open'

  constructor(
    readonly preview: RestorePreview,
    private readonly ops: readonly JournalOp[],
    private readonly hooks: RestoreTransactionHooks,
    private readonly startedAt: number,
  ) {}

  get total(): number {
    return this.ops.length
  }

  get applied(): number {
    return this.next
  }

  /** Applies the next op; returns whether ops remain. A failure rolls back and throws. */
  step(): boolean {
    if (this.status !== 'open') throw new Error(`restore transaction is ${this.status}`)
    const op = this.ops[this.next]
    if (op) {
      try {
        this.hooks.apply(op, this.next)
      } catch (error) {
        this.status = 'aborted'
        throw this.hooks.abort(error)
      }
      this.next++
    }
    return this.next < this.ops.length
  }

  /** Applies all remaining ops and finishes. */
  run(): RestoreResult {
    while (this.step()) {
      // each step applies one op
    }
    return this.commit()
  }

  /** Abandons the restore: ops applied so far are rolled back and the journal removed. */
  cancel(): void {
    if (this.status !== 'open') throw new Error(`restore transaction is ${this.status}`)
    this.status = 'aborted'
    this.hooks.cancel()
  }

  commit(): RestoreResult {
    if (this.status !== 'open') throw new Error(`restore transaction is ${this.status}`)
    if (this.next < this.ops.length) throw new Error(`restore transaction has ${this.ops.length - this.next} ops left`)
    this.hooks.commit()
    this.status = 'committed'
    let written = 0
    let deleted = 0
    for (const op of this.ops) {
      if (op.op === 'write') written++
      else deleted++
    }
    return {
      preview: this.preview,
      preRestoreId: this.preview.currentId,
      written,
      deleted,
      durationMs: performance.now() - this.startedAt,
    }
  }
}
