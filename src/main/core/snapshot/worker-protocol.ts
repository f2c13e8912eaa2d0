import type { MessagePort } from 'node:worker_threads'
import type { RecoverResult, RestoreOptions, RestorePreview, RestoreResult } from './restore-types'
import type { PreImage, RestoreRunOptions, SnapshotOptions } from './snapshot-engine'
import type { TreeChange } from './tree-copy'
import type { DiffEntry, DiffOptions, FileVersions, GcResult, Manifest, ManifestEntry, SnapshotId, SnapshotResult, UsageReport } from './types'

/** The change feed as the engine sees it: trusted or not, and what the next snapshot will visit. */
export interface ChangeFeedState {
  live: boolean
  pendingPaths: number
  fullWalkPending: boolean
}

/**
 * The operations the snapshot worker serves: name → [arguments, result]. The client and the
 * worker are both typed from this one table, so they cannot drift apart.
 */
export interface SnapshotOps {
  snapshot: [[options?: SnapshotOptions], SnapshotResult]
  /** The snapshot just taken with the given paths as they were before tools wrote them during it. */
  withPreImages: [[preImages: PreImage[]], SnapshotResult]
  /** A snapshot of only these paths, as given (see `SnapshotEngine.scopedSnapshot`), and the paths it covers. */
  scopedSnapshot: [[images: PreImage[]], { id: SnapshotId; paths: string[] }]
  /** Marks paths (project-relative or absolute); paths outside the project are skipped. */
  markDirty: [[paths: string[]], void]
  markAllDirty: [[], void]
  settleAfterUnlistedChange: [[], void]
  changeFeed: [[], ChangeFeedState]
  /**
   * Starts the change feed; resolves once it is live. Its changes come on `feed` (a port of the
   * project's watch worker, transferred), or from a watch of the worker's own.
   */
  watch: [[feed?: MessagePort], void]
  unwatch: [[], void]
  exists: [[id: SnapshotId], boolean]
  manifest: [[id: SnapshotId], Manifest]
  diff: [[fromId: SnapshotId, toId?: SnapshotId, options?: DiffOptions], DiffEntry[]]
  fileVersions: [[path: string, fromId: SnapshotId, toId?: SnapshotId], FileVersions]
  preview: [[targetId: SnapshotId, options?: RestoreOptions], RestorePreview]
  restore: [[targetId: SnapshotId, options?: RestoreRunOptions], RestoreResult]
  recover: [[options?: { prefer?: 'complete' | 'rollback' }], RecoverResult]
  usage: [[options?: { exact?: boolean }], UsageReport]
  gc: [[liveIds: SnapshotId[]], GcResult]
  /** Writes a snapshot into an empty folder (a worktree copy), keeping the stat index of what it wrote in `indexDir`. */
  materialize: [[id: SnapshotId, target: string, indexDir: string], void]
  /** Files of another folder that differ from a snapshot, read only where the folder's stat index says they changed. */
  compareDir: [[id: SnapshotId, dir: string, indexDir: string], TreeChange[]]
  /** Files and links of the project left out of its snapshots (ignored) that gitignore-syntax patterns match. */
  filesLeftOutMatching: [[patterns: string], string[]]
  /** Forgets the stat index kept in memory for a copy (removed). */
  forgetCopy: [[dir: string], void]
  /** The entries of paths in a snapshot (null: not in it), without their content. */
  entries: [[id: SnapshotId, paths: string[]], Array<ManifestEntry | null>]
  /** Which of the paths differ in a folder (default: the project) from a snapshot, read one by one. */
  comparePaths: [[id: SnapshotId, paths: string[], dir?: string], TreeChange[]]
}

export type SnapshotOpName = keyof SnapshotOps

export interface SnapshotRequest {
  id: number
  op: SnapshotOpName
  args: unknown[]
}

/** A failure as it crosses the thread boundary: HotaruError's name and data survive. */
export interface SerializedError {
  name: string
  message: string
  data?: { message: string; [key: string]: unknown }
  stack?: string
}

export type SnapshotWorkerMessage =
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: SerializedError }
  /** A diagnostic of the worker (change feed errors) for the host's log. */
  | { type: 'log'; level: 'warn' | 'debug'; message: string }
