import type { FileEntry, SnapshotId, SymlinkEntry } from './types'

export interface RestoreOptions {
  /** Restore only these paths; a directory path covers everything below it. Default: the whole tree. */
  paths?: readonly string[]
  /**
   * The last snapshot that reflects only the agent's own work (e.g. the checkpoint taken after its
   * last tool step). Whatever differs between it and the working tree was done by the user.
   * Without it, every difference is a plain write or delete (still listed in the preview).
   */
  baselineId?: SnapshotId
  /** Delete files the user created since the baseline. Default false: they are kept. */
  includeUserCreated?: boolean
  /** Overwrite paths the user changed since the baseline (and files whose content is in no snapshot). Default false. */
  overwriteConflicts?: boolean
}

export interface PlannedWrite {
  path: string
  action: 'create' | 'update'
  entry: FileEntry | SymlinkEntry
}

export type ConflictReason =
  /** Edited by the user since the baseline. */
  | 'user-modified'
  /** Deleted by the user since the baseline. */
  | 'user-deleted'
  /** Created by the user since the baseline where the target has a different file. */
  | 'user-created'
  /** Its current content is in no snapshot (too large / unreadable): overwriting could not be undone. */
  | 'not-in-store'

export interface RestoreConflict {
  path: string
  reason: ConflictReason
  /** What the restore does with it: `keep` (default) or `overwrite` (`overwriteConflicts`). */
  resolution: 'keep' | 'overwrite'
}

export interface UserCreatedFile {
  path: string
  /** `keep` (default) or `delete` (`includeUserCreated`). */
  resolution: 'keep' | 'delete'
}

export type SkipReason =
  /** The target's content is not in the store (the file was untracked in that snapshot). */
  | 'not-in-store'
  /** An ignored file or directory (or `.git`) is in the way; ignored paths are never touched. */
  | 'ignored'
  /** A kept path (user file, conflict) is in the way: a file where a directory is needed, or the reverse. */
  | 'blocked'

export interface SkippedPath {
  path: string
  reason: SkipReason
}

/** What a restore will do, computed before anything is touched. */
export interface RestorePreview {
  targetId: SnapshotId
  /** Snapshot of the working tree taken for this preview; restoring it undoes the restore. */
  currentId: SnapshotId
  baselineId: SnapshotId | null
  writes: PlannedWrite[]
  deletes: string[]
  /** Paths in scope that already match the target. */
  unchanged: number
  conflicts: RestoreConflict[]
  userCreated: UserCreatedFile[]
  skipped: SkippedPath[]
}

export interface RestoreResult {
  preview: RestorePreview
  /** The checkpoint taken just before applying (same as `preview.currentId`): restoring it undoes this restore. */
  preRestoreId: SnapshotId
  written: number
  deleted: number
  durationMs: number
}

export interface RecoverResult {
  action: 'none' | 'completed' | 'rolled-back'
  targetId?: SnapshotId
  preRestoreId?: SnapshotId
  /** Paths a rollback could not put back because their old content was never stored. */
  unrecoverable: string[]
  /** Why completing the restore failed, when it was rolled back instead. */
  completeError?: string
  /**
   * Paths left as they are because they hold neither the restore's target nor what the restore started from:
   * the user wrote them after the interruption (a restore keeps user files the same way).
   */
  kept?: string[]
}
