/**
 * Public data shapes of the snapshot engine. Paths are always project-relative
 * and `/`-separated, whatever the platform.
 */
import type { DiffEntry, FileSide, FileVersions } from '@shared/schema/checkpoint'

/** A snapshot id is the sha256 (hex) of its root tree object: equal trees have equal ids. */
export type SnapshotId = string

/** Why a file is listed without its content. */
export type UntrackedReason = 'too-large' | 'unreadable'

export interface FileEntry {
  kind: 'file'
  /** sha256 (hex) of the raw content; the key of its blob. */
  hash: string
  size: number
  /** The owner exec bit, the only mode bit snapshots carry (as git does). */
  exec: boolean
}

export interface SymlinkEntry {
  kind: 'symlink'
  /** The link text, stored verbatim and never followed. */
  target: string
  size: number
}

/** A file whose content is not in the store (over the size cap, or unreadable); listed so the UI can warn. */
export interface UntrackedEntry {
  kind: 'untracked'
  size: number
  reason: UntrackedReason
}

export type ManifestEntry = FileEntry | SymlinkEntry | UntrackedEntry

/** A snapshot's content: path → entry for every file and link of the tree. */
export type Manifest = ReadonlyMap<string, ManifestEntry>

export interface SnapshotEngineOptions {
  /** Absolute project root. */
  root: string
  /** Per-project store directory, e.g. `<dataDir>/snapshots/<projectId>`; created on demand. */
  storeDir: string
  /** Files larger than this are listed as untracked. Default 20 MB. */
  maxFileBytes?: number
  /** Extra gitignore-style excludes on top of the defaults and the project's `.gitignore`s. */
  extraExcludes?: readonly string[]
  /** Storage budget reported by `usage()`; the caller decides what to drop and runs `gc()`. */
  quotaBytes?: number
  /**
   * Shared with the host (a `SharedArrayBuffer`): a snapshot given a `stopTicket` stops its walk
   * once element 0 reaches that number, even while the worker is busy walking (see `SnapshotClient.stopWalks`).
   */
  walkStop?: Int32Array
  /**
   * For tests of stopped walks: a stoppable walk holds still this long at its first check unless it
   * is stopped meanwhile (`HOTARU_WALK_STALL_MS`), so a turn reliably ends while its walk runs.
   */
  stoppableWalkStallMs?: number
}

export interface ScanError {
  path: string
  message: string
  /** A folder that could not be listed (nothing under it is in the snapshot as it is now). */
  folder?: boolean
}

/** What one snapshot cost; exposed so callers and tests can see incremental work stay small. */
export interface ScanStats {
  /** True when the whole tree was walked, false when only dirty paths were visited. */
  full: boolean
  /** lstat calls (files, and directories whose cached listing is checked). */
  filesStatted: number
  dirsRead: number
  filesHashed: number
  blobsWritten: number
  treesWritten: number
  /** On-disk bytes of new blobs and trees. */
  bytesWritten: number
  durationMs: number
  /** Paths that could not be read; they are listed as untracked, never dropped. */
  errors: ScanError[]
}

export interface UntrackedFile {
  path: string
  size: number
  reason: UntrackedReason
}

export interface SnapshotResult {
  id: SnapshotId
  /** False when the tree equals the previous snapshot's (same id, nothing written). */
  changed: boolean
  untracked: UntrackedFile[]
  stats: ScanStats
}

/** A file that differs between two snapshots: the wire type of `checkpoint.diff`. */
export type { DiffEntry }

export type DiffStatus = DiffEntry['status']

export interface DiffOptions {
  /** Count added/deleted lines of text files (reads both blobs). Default true. */
  lineCounts?: boolean
}

/** Both sides of one file for a diff viewer: the wire types of `checkpoint.file`. */
export type { FileSide, FileVersions }

export interface UsageReport {
  blobs: { count: number; bytes: number }
  trees: { count: number; bytes: number }
  totalBytes: number
  quotaBytes: number | null
  overQuota: boolean
}

export interface GcResult {
  blobsRemoved: number
  treesRemoved: number
  bytesFreed: number
  blobsKept: number
  treesKept: number
  durationMs: number
}
