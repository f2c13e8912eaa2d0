import { ErrorNames, HotaruError } from '@shared/errors'
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { comparePaths, materializeTree, type TreeChange } from './tree-copy'
import { CopyIndex } from './copy-index'
import { filesMatching } from './matching-files'
import { IgnoreRules } from '../project/ignore-rules'
import { writeFileAtomic } from './atomic-file'
import { ChangeFeed, ownWatch, type FeedSource } from './change-feed'
import { diskProbe, lstatOrUndefined } from './disk-probe'
import { errnoCode, SnapshotErrorNames, snapshotError } from './errors'
import { collectGarbage } from './gc'
import { IgnoreCache } from './ignore-cache'
import { sideFromDisk, sideFromStore } from './file-versions'
import { ObjectStore } from './object-store'
import { RestoreApplier } from './restore-apply'
import { journalBlobs, type JournalOp, MAX_SAVED_BYTES, newNonce, readJournal, removeJournal, type RestoreJournal, writeJournal } from './restore-journal'
import { recoverRestore } from './restore-recovery'
import { planRestore, scopeMatcher } from './restore-plan'
import { RestoreTransaction } from './restore-transaction'
import type { RecoverResult, RestoreOptions, RestorePreview, RestoreResult } from './restore-types'
import { type DirListing, emptyStats, isGitignorePath, isInGitDir, isRacyAt, Scanner, sigOf, WalkStopped } from './scanner'
import { entryOfContent, NO_SIGNATURE, storeScopedTree } from './scoped-tree'
import { StatIndexFile } from './stat-index-file'
import { acquireStoreLock } from './store-lock'
import { describeChanges, diffTrees, type RawChange } from './tree-diff'
import { compareNames } from './tree-codec'
import { TreeReader } from './tree-reader'
import { parentOf, TreeState } from './tree-state'
import type {
  DiffEntry,
  DiffOptions,
  FileVersions,
  GcResult,
  Manifest,
  ManifestEntry,
  ScanStats,
  SnapshotEngineOptions,
  SnapshotId,
  SnapshotResult,
  UsageReport,
} from './types'

export type { TreeChange } from './tree-copy'

export const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024
const STORE_FORMAT = 'hotaru-snapshot-store 1\n'
/** Beyond this many dirty paths a full walk is cheaper than visiting them one by one. */
const MAX_DIRTY_PATHS = 20_000

export interface WatchHandle {
  dispose(): Promise<void>
}

export interface SnapshotOptions {
  /** Walk the whole tree even if the change feed says little changed. */
  full?: boolean
  /**
   * Visit only the marked paths even without a live change feed: the caller vouches that nothing
   * else changed since the previous snapshot (e.g. after an edit tool wrote exactly those paths).
   * A pending full walk (first snapshot, `markAllDirty`, an ignore-rule change) still happens.
   */
  trustMarks?: boolean
  /**
   * The walk may be stopped (a checkpoint nobody needs whole any more: the process is ending)
   * once the engine's `walkStop` flag reaches this number: the snapshot then fails with
   * `SnapshotWalkStopped`, and what it hashed is stored and in the stat index, so the next walk
   * reads only the rest.
   */
  stopTicket?: number
}

/**
 * What a path held before a tool wrote it, read just before the write (see `withPreImages`):
 * its content and exec bit, or `null` when it did not exist.
 */
export interface PreImage {
  /** Absolute, or relative to the project root. */
  path: string
  content: { data: Uint8Array; exec: boolean } | null
}

export interface RestoreRunOptions extends RestoreOptions {
  /** The `currentId` of the preview the user approved: if the tree changed since, the restore throws `Stale`. */
  expectCurrentId?: SnapshotId
}

interface UsageCounters {
  blobs: { count: number; bytes: number }
  trees: { count: number; bytes: number }
}

/**
 * Snapshots of one project tree in a content-addressed store, with diff, restore (preview
 * first, journaled, crash-safe) and garbage collection. See `types.ts` for data shapes and
 * `restore-plan.ts` for the restore rules.
 *
 * The API is synchronous on purpose: the walk uses sync `lstat` (much faster than per-file
 * promises), and synchronous operations of one process cannot interleave, which keeps the
 * stat index consistent without locks inside the process. Host it off the UI thread.
 * `watch()` adds a change feed so snapshots after small changes cost O(changed files).
 *
 * Store layout under `storeDir`: `blobs/` file contents and `trees/` directory trees (both
 * content-addressed), the stat index, an `epoch` bumped by garbage collection, the `lock`
 * of a running operation and, while a restore runs, its journal.
 */
export class SnapshotEngine {
  readonly root: string
  readonly storeDir: string
  /** Cost of the last snapshot (also taken by previews, diffs against the working tree and restores). */
  lastScan: ScanStats | null = null

  private readonly maxFileBytes: number
  private readonly extraExcludes: readonly string[]
  private readonly quotaBytes: number | null
  private readonly walkStop: Int32Array | null
  private readonly walkStallMs: number
  private readonly rules: IgnoreCache
  private readonly blobs: ObjectStore
  private readonly trees: ObjectStore
  private readonly reader: TreeReader
  private readonly state = new TreeState()
  private readonly indexFile: StatIndexFile
  private readonly excluded: ReadonlySet<string>
  private readonly racy = new Set<string>()
  private readonly dirListings = new Map<string, DirListing>()
  private readonly dirty = new Set<string>()
  private allDirty = true
  private feedLive = false
  private feed: ChangeFeed | null = null
  private epoch: string | null = null
  private lastId: SnapshotId | null = null
  private usageCounters: UsageCounters | null = null
  private activeRestore: RestoreTransaction | null = null
  /** Stat indexes of copies of the project (worktrees), by folder: kept between comparisons. */
  private readonly copies = new Map<string, CopyIndex>()
  /** The last manifest read whole (a worktree's base, asked for at every comparison); manifests never change. */
  private lastManifest: { id: SnapshotId; manifest: Manifest } | null = null

  constructor(options: SnapshotEngineOptions) {
    this.root = resolve(options.root)
    this.storeDir = resolve(options.storeDir)
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
    this.quotaBytes = options.quotaBytes ?? null
    this.walkStop = options.walkStop ?? null
    this.walkStallMs = options.stoppableWalkStallMs ?? 0
    this.extraExcludes = options.extraExcludes ?? []
    this.rules = new IgnoreCache(new IgnoreRules(this.root, this.extraExcludes))
    this.blobs = new ObjectStore(join(this.storeDir, 'blobs'))
    this.trees = new ObjectStore(join(this.storeDir, 'trees'))
    this.reader = new TreeReader(this.trees)
    this.indexFile = new StatIndexFile(this.storeDir)
    // A store kept inside the project must not snapshot itself.
    const storeRel = relative(this.root, this.storeDir)
    const inside = storeRel !== '' && !storeRel.startsWith('..') && !isAbsolute(storeRel)
    this.excluded = new Set(inside ? [storeRel.split(sep).join('/')] : [])
  }

  /** Snapshots the working tree; returns the same id as the previous snapshot when nothing changed. */
  snapshot(options: SnapshotOptions = {}): SnapshotResult {
    return this.locked(() => {
      this.assertNoRestorePending()
      return this.takeSnapshot(options.full ?? false, options.trustMarks ?? false, options.stopTicket)
    })
  }

  /**
   * The snapshot just taken with some paths put back as they were before a tool wrote them
   * while it ran: the walk may have read either version, the pre-images say which one belongs
   * to this snapshot. The engine's own view of the tree stays the disk's: those paths are read
   * again by the next snapshot (their stat signatures are cleared, so they are re-hashed).
   * Returns the derived snapshot's id (stored like any other; nothing names it until the caller
   * records it).
   */
  withPreImages(preImages: readonly PreImage[]): SnapshotResult {
    return this.locked(() => {
      this.assertNoRestorePending()
      const started = performance.now()
      const stats = emptyStats(false)
      this.blobs.beginBatch()
      this.trees.beginBatch()
      let id: SnapshotId
      try {
        for (const image of preImages) this.putPreImage(this.toRelative(image.path), image, stats)
        id = this.state.buildRoot((hash, bytes) => {
          if (this.trees.put(hash, bytes) > 0) stats.treesWritten++
        })
        stats.bytesWritten += this.blobs.flush() + this.trees.flush()
      } catch (error) {
        this.blobs.discardBatch()
        this.trees.discardBatch()
        this.state.invalidateTrees()
        this.allDirty = true
        throw error
      }
      // The records now hold pre-images under a cleared signature: saved that way, they can
      // only ever be re-hashed, never trusted.
      this.indexFile.save(this.state, this.requireEpoch())
      const changed = id !== this.lastId
      this.lastId = id
      stats.durationMs = performance.now() - started
      return { id, changed, untracked: this.untrackedFiles(), stats }
    })
  }

  /**
   * A snapshot of only `images` (what those paths hold, or held before a tool wrote them; absent
   * ones left out): the checkpoint of a message whose walk was stopped, which can restore exactly
   * the paths its tools wrote. Paths a walk would not include (ignored, excluded, `.git`, below a
   * link) are left out of `paths` too. The engine's view of the tree is untouched.
   */
  scopedSnapshot(images: readonly PreImage[]): { id: SnapshotId; paths: string[] } {
    return this.locked(() => {
      this.assertNoRestorePending()
      const kept = new Map<string, PreImage>()
      for (const image of images) {
        const path = this.toRelative(image.path)
        if (path !== '' && !kept.has(path) && this.tracks(path) && !this.belowLink(path)) kept.set(path, { ...image, path })
      }
      const paths = [...kept.keys()].sort(compareNames)
      return { id: storeScopedTree([...kept.values()], this.blobs, this.trees, this.maxFileBytes), paths }
    })
  }

  /** Whether a folder on the way to `path` is not a folder on disk (a link, a file): then `path` is not this tree's. */
  private belowLink(path: string): boolean {
    for (let dir = parentOf(path); dir !== ''; dir = parentOf(dir)) {
      const stats = lstatOrUndefined(join(this.root, dir))
      if (stats === 'notdir' || (stats !== undefined && !stats.isDirectory())) return true
    }
    return false
  }

  private putPreImage(path: string, image: PreImage, stats: ScanStats): void {
    if (path === '') return
    // Below a link or a file in this snapshot (a write through a linked folder): not this tree's path.
    for (let dir = parentOf(path); dir !== ''; dir = parentOf(dir)) if (this.state.get(dir)) return
    this.dirty.add(path)
    if (!image.content) {
      this.state.delete(path)
      return
    }
    // A path the snapshot would never hold (ignored, excluded, inside .git) stays out.
    if (!this.state.get(path) && !this.tracks(path)) return
    const { entry, written } = entryOfContent(image.content, this.blobs, this.maxFileBytes)
    if (written > 0) {
      stats.blobsWritten++
      stats.bytesWritten += written
    }
    this.state.set(path, { ...NO_SIGNATURE, entry })
  }

  /** Whether a walk would include `path` (not excluded, not in .git, not ignored at any level). */
  private tracks(path: string): boolean {
    if (isInGitDir(path)) return false
    for (const excluded of this.excluded) if (path === excluded || path.startsWith(`${excluded}/`)) return false
    const parts = path.split('/')
    for (let i = 1; i < parts.length; i++) if (this.rules.isIgnored(parts.slice(0, i).join('/'), true)) return false
    return !this.rules.isIgnored(path, false)
  }

  /** Paths the caller changed (e.g. an edit tool): visited by the next snapshot even without a feed event. */
  markDirty(paths: Iterable<string>): void {
    for (const raw of paths) {
      const path = this.toRelative(raw)
      if (path === '') this.allDirty = true
      else this.dirty.add(path)
    }
    if (this.dirty.size > MAX_DIRTY_PATHS) this.allDirty = true
  }

  /** Whether the change feed is trusted, and what the next snapshot will visit. */
  get changeFeed(): { live: boolean; pendingPaths: number; fullWalkPending: boolean } {
    return { live: this.feedLive, pendingPaths: this.dirty.size, fullWalkPending: this.allDirty || !this.feedLive }
  }

  /** The next snapshot walks the whole tree (e.g. after a shell command ran). */
  markAllDirty(): void {
    this.allDirty = true
  }

  /**
   * Something changed the tree in ways nobody listed (a shell command, an MCP tool): with a live
   * feed, waits until it has reported what happened (quiet for `quietMs`, at most `maxMs`); without
   * one, the next snapshot walks the whole tree.
   */
  async settleAfterUnlistedChange(quietMs = 25, maxMs = 300): Promise<void> {
    const feed = this.feed
    if (!feed || !this.feedLive) {
      this.allDirty = true
      return
    }
    await feed.settle(quietMs, maxMs)
    // The feed failed or restarted meanwhile: it can no longer vouch for the change.
    if (!this.feedLive) this.allDirty = true
  }

  /**
   * Starts the change feed; resolves once it is live. Until then, and whenever it fails,
   * snapshots walk the whole tree, so correctness never depends on the feed.
   */
  async watch(options: { onError?: (error: Error) => void; source?: FeedSource } = {}): Promise<WatchHandle> {
    if (this.feed) throw new Error('the change feed is already running')
    const feed = new ChangeFeed(
      this.root,
      this.rules,
      this.excluded,
      {
        dirty: (path) => {
          this.dirty.add(path)
          if (this.dirty.size > MAX_DIRTY_PATHS) {
            this.dirty.clear()
            this.allDirty = true
          }
        },
        rescan: () => {
          this.allDirty = true
        },
        setLive: (live) => {
          this.feedLive = live
        },
      },
      options.onError ?? ((error) => console.warn(`[snapshot] change feed of ${this.root}: ${error.message}`)),
    )
    this.feed = feed
    try {
      await feed.start(options.source ?? ownWatch(this.root, this.rules))
    } catch (error) {
      this.feed = null
      await feed.dispose()
      throw error
    }
    return {
      dispose: async () => {
        if (this.feed === feed) this.feed = null
        await feed.dispose()
      },
    }
  }

  async dispose(): Promise<void> {
    const feed = this.feed
    this.feed = null
    if (feed) await feed.dispose()
  }

  exists(id: SnapshotId): boolean {
    return this.trees.has(id)
  }

  manifest(id: SnapshotId): Manifest {
    return this.reader.manifest(id)
  }

  /** `manifest(id)`, the same map again while `id` is the last one asked for (callers must not change it). */
  private manifestOf(id: SnapshotId): Manifest {
    if (this.lastManifest?.id !== id) {
      this.reader.assertExists(id)
      this.lastManifest = { id, manifest: this.reader.manifest(id) }
    }
    return this.lastManifest.manifest
  }

  /** Changed paths from `fromId` to `toId`, or to the working tree (snapshotted first) when `toId` is omitted. */
  diff(fromId: SnapshotId, toId?: SnapshotId, options: DiffOptions = {}): DiffEntry[] {
    this.reader.assertExists(fromId)
    const to = toId ?? this.snapshot().id
    this.reader.assertExists(to)
    return describeChanges(this.blobs, diffTrees(this.reader, fromId, to), options.lineCounts ?? true)
  }

  /**
   * Writes snapshot `id` into the empty folder `target` (a copy of the project) and keeps the stat index
   * of what it wrote in `indexDir`, so comparing the copy later reads only files touched since.
   */
  async materialize(id: SnapshotId, target: string, indexDir: string): Promise<void> {
    const dir = resolve(target)
    const manifest = this.manifestOf(id)
    const records = await materializeTree(this.blobs, manifest, dir, this.root)
    this.copies.set(dir, CopyIndex.seeded(dir, resolve(indexDir), this.maxFileBytes, this.extraExcludes, manifest, records))
  }

  /**
   * Files of another folder (a copy made by `materialize`) that differ from snapshot `id`. Its stat index
   * (in memory, else from `indexDir`) means only files whose stat signature changed are read.
   */
  compareDir(id: SnapshotId, dir: string, indexDir: string): TreeChange[] {
    const base = this.manifestOf(id)
    const folder = resolve(dir)
    const index = resolve(indexDir)
    let copy = this.copies.get(folder)
    if (copy?.indexDir !== index) {
      copy = CopyIndex.load(folder, index, this.maxFileBytes, this.extraExcludes)
      this.copies.set(folder, copy)
    }
    return copy.changes(base).changes
  }

  /**
   * Files and links of the project that its snapshots leave out (ignored ones) and that
   * gitignore-syntax `patterns` match: what a copy of the project brings along besides the snapshot
   * (a worktree's `.worktreeinclude`). One synchronous walk here, off the main thread; paths the
   * stat index holds are not even matched.
   */
  filesLeftOutMatching(patterns: string): string[] {
    return filesMatching(this.root, patterns, (path) => this.state.get(path) !== undefined)
  }

  /**
   * Settles the stat index of one copy just written (see `CopyIndex.settle`); false when none needs
   * it. The worker calls it while idle, long after the racy window of the copy's last files.
   */
  settleCopy(): boolean {
    for (const copy of this.copies.values()) {
      if (!copy.unsettled) continue
      copy.settle()
      return true
    }
    return false
  }

  /** Forgets the stat index kept for a copy (it was removed). */
  forgetCopy(dir: string): void {
    this.copies.delete(resolve(dir))
  }

  /** Which of `paths` differ in folder `dir` (default: the project) from snapshot `id`, without walking the folder. */
  comparePaths(id: SnapshotId, paths: readonly string[], dir: string = this.root): TreeChange[] {
    return comparePaths(this.manifestOf(id), resolve(dir), paths)
  }

  /** The entries of `paths` in snapshot `id` (null: not in it), without their content. */
  entries(id: SnapshotId, paths: readonly string[]): Array<ManifestEntry | null> {
    this.reader.assertExists(id)
    return paths.map((path) => this.reader.lookup(id, path) ?? null)
  }

  /** Old and new content of one path for a diff viewer; `toId` omitted = the working tree as it is now. */
  fileVersions(path: string, fromId: SnapshotId, toId?: SnapshotId): FileVersions {
    const rel = this.toRelative(path)
    const before = sideFromStore(this.blobs, this.reader.lookup(fromId, rel))
    const after =
      toId === undefined
        ? sideFromDisk(this.root, rel, (p, isDir) => this.rules.isIgnored(p, isDir))
        : sideFromStore(this.blobs, this.reader.lookup(toId, rel))
    return { path: rel, binary: before.binary || after.binary, old: before.side, new: after.side }
  }

  /** What restoring `targetId` would do now; takes a snapshot of the working tree (the undo point). */
  preview(targetId: SnapshotId, options: RestoreOptions = {}): RestorePreview {
    return this.locked(() => {
      this.assertNoRestorePending()
      return this.computePreview(targetId, options)
    })
  }

  /** Previews and applies a restore in one go. See `beginRestore` for a step-wise restore. */
  restore(targetId: SnapshotId, options: RestoreRunOptions = {}): RestoreResult {
    return this.beginRestore(targetId, options).run()
  }

  /**
   * Computes the preview, writes the journal and returns the transaction; nothing in the tree
   * is touched until `step()`/`run()`. The store stays locked until it commits or fails.
   */
  beginRestore(targetId: SnapshotId, options: RestoreRunOptions = {}): RestoreTransaction {
    const started = performance.now()
    const release = acquireStoreLock(this.ensureStore())
    try {
      this.openStore()
      this.assertNoRestorePending()
      const preview = this.computePreview(targetId, options)
      if (options.expectCurrentId !== undefined && options.expectCurrentId !== preview.currentId) {
        throw snapshotError(SnapshotErrorNames.Stale, 'the working tree changed since the preview; preview again', {
          expected: options.expectCurrentId,
          actual: preview.currentId,
        })
      }
      const before = (path: string): ManifestEntry | null => this.reader.lookup(preview.currentId, path) ?? null
      const ops: JournalOp[] = [
        ...preview.deletes.map((path): JournalOp => ({ op: 'delete', path, before: before(path) })),
        ...preview.writes.map((w): JournalOp => ({ op: 'write', path: w.path, entry: w.entry, before: before(w.path) })),
      ]
      const journal: RestoreJournal = { v: 2, nonce: newNonce(), targetId, preRestoreId: preview.currentId, ops }
      if (ops.length > 0) {
        // The way back is each op's `before`: that content must survive a power cut before the
        // journal may depend on it. Rolling back needs nothing else (no trees, no target blobs: a
        // completion that finds one missing rolls back). Small content travels in the journal;
        // only the store files of the rest are synced.
        const unsaved = this.saveBefores(journal)
        this.blobs.syncObjects(unsaved)
        writeJournal(this.storeDir, journal)
      }
      const applier = new RestoreApplier(this.root, journalBlobs(journal, this.blobs), journal.nonce)
      let finished = false
      const finish = (): void => {
        if (finished) return
        finished = true
        this.activeRestore = null
        release()
      }
      const tx = new RestoreTransaction(
        preview,
        ops,
        {
          apply: (op, index) => this.applyOp(applier, op, index),
          commit: () => {
            try {
              if (ops.length > 0) removeJournal(this.storeDir)
            } finally {
              finish()
            }
          },
          cancel: () => {
            this.activeRestore = null
            try {
              if (ops.length > 0) this.recoverLocked('rollback')
            } finally {
              finish()
            }
          },
          abort: (error) => {
            this.activeRestore = null
            try {
              this.recoverLocked('rollback')
              const name = error instanceof HotaruError ? error.name : ErrorNames.Internal
              const message = `restore failed and was rolled back: ${(error as Error).message}`
              return new HotaruError(name, { message, rolledBack: true }, { cause: error })
            } catch (rollbackError) {
              return new AggregateError(
                [error, rollbackError],
                'restore failed and could not be rolled back; recover() will retry at next start',
                { cause: rollbackError },
              )
            } finally {
              finish()
            }
          },
        },
        started,
      )
      this.activeRestore = tx
      return tx
    } catch (error) {
      release()
      throw error
    }
  }

  /**
   * Finishes a restore interrupted by a crash (call at start-up): completes its ops, or rolls
   * them back to the pre-restore snapshot if completing fails or `prefer: 'rollback'`.
   */
  recover(options: { prefer?: 'complete' | 'rollback' } = {}): RecoverResult {
    return this.locked(() => this.recoverLocked(options.prefer ?? 'complete'))
  }

  /** Disk used by the store; exact (a listing) the first time or when asked, then kept up to date. */
  usage(options: { exact?: boolean } = {}): UsageReport {
    return this.locked(() => {
      if (!this.usageCounters || options.exact) this.usageCounters = this.countUsage()
      const { blobs, trees } = this.usageCounters
      const totalBytes = blobs.bytes + trees.bytes
      return {
        blobs: { ...blobs },
        trees: { ...trees },
        totalBytes,
        quotaBytes: this.quotaBytes,
        overQuota: this.quotaBytes !== null && totalBytes > this.quotaBytes,
      }
    })
  }

  /**
   * Deletes every object not reachable from `liveIds` (plus the ids of an unfinished restore).
   * Stat index records naming removed blobs are dropped, so those files are rehashed later.
   */
  gc(liveIds: Iterable<SnapshotId>): GcResult {
    return this.locked(() => {
      const roots = new Set(liveIds)
      const journal = readJournal(this.storeDir)
      if (journal) {
        roots.add(journal.targetId)
        roots.add(journal.preRestoreId)
      }
      const outcome = collectGarbage(this.reader, this.trees, this.blobs, roots)
      for (const [path, record] of [...this.state.records]) {
        if (record.entry.kind === 'file' && !outcome.liveBlobs.has(record.entry.hash)) {
          this.state.delete(path)
          this.racy.delete(path)
          this.dirty.add(path)
        }
      }
      this.state.invalidateTrees()
      this.reader.clear()
      this.lastManifest = null
      this.blobs.reloadPacks()
      this.trees.reloadPacks()
      this.epoch = newNonce()
      writeFileAtomic(join(this.storeDir, 'epoch'), this.epoch, true)
      this.indexFile.compact(this.state, this.epoch)
      const sum = (objects: { bytes: number }[]) => objects.reduce((total, o) => total + o.bytes, 0)
      this.usageCounters = {
        blobs: { count: outcome.remainingBlobs.length, bytes: sum(outcome.remainingBlobs) },
        trees: { count: outcome.remainingTrees.length, bytes: sum(outcome.remainingTrees) },
      }
      const { liveBlobs: _live, remainingBlobs: _blobs, remainingTrees: _trees, ...result } = outcome
      return result
    })
  }

  // ---- internals ----

  /**
   * Compresses one pack that a bulk write stored uncompressed (blobs first, then trees), or its
   * next `maxBytes` of raw content, and returns how many packs are left; 0 when there is nothing
   * to do. The worker calls it while idle, a slice at a time.
   */
  compressDeferred(maxBytes?: number): { remaining: number } {
    return this.locked(() => {
      const blobs = this.blobs.compressDeferredPack(maxBytes)
      const done = blobs ?? this.trees.compressDeferredPack(maxBytes)
      if (!done) return { remaining: 0 }
      if (this.usageCounters) (blobs ? this.usageCounters.blobs : this.usageCounters.trees).bytes += done.bytesDelta
      return { remaining: done.remaining + (blobs ? this.trees.deferredPacks() : 0) }
    })
  }

  private locked<T>(fn: () => T): T {
    const release = acquireStoreLock(this.ensureStore())
    try {
      this.openStore()
      return fn()
    } finally {
      release()
    }
  }

  /** Creates the store directory (the lock lives in it) and returns it. */
  private ensureStore(): string {
    mkdirSync(this.storeDir, { recursive: true })
    return this.storeDir
  }

  /** Checks the store format and epoch; (re)loads the stat index when another process collected garbage. */
  private openStore(): void {
    let root
    try {
      root = statSync(this.root)
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') {
        throw new HotaruError(ErrorNames.NotFound, { message: `project root ${this.root} does not exist`, path: this.root })
      }
      throw error
    }
    if (!root.isDirectory()) {
      throw new HotaruError(ErrorNames.NotADirectory, { message: `project root ${this.root} is not a directory`, path: this.root })
    }
    const formatPath = join(this.storeDir, 'FORMAT')
    // A store created now holds nothing yet: its usage is known without listing it.
    let created = false
    if (this.epoch === null) {
      if (!existsSync(formatPath)) {
        writeFileAtomic(formatPath, STORE_FORMAT, true)
        created = true
      } else if (readFileSync(formatPath, 'utf8') !== STORE_FORMAT) {
        throw new HotaruError(ErrorNames.Unsupported, { message: `snapshot store ${this.storeDir} has an unknown format` })
      }
    }
    const epoch = this.readEpoch()
    if (epoch === this.epoch) return
    const first = this.epoch === null
    this.epoch = epoch
    this.state.deleteUnder('')
    this.state.takeChanges()
    this.racy.clear()
    this.reader.clear()
    this.blobs.reloadPacks()
    this.trees.reloadPacks()
    this.allDirty = true
    this.usageCounters = created ? { blobs: { count: 0, bytes: 0 }, trees: { count: 0, bytes: 0 } } : null
    if (!first) this.lastId = null
    if (this.indexFile.load(this.state, epoch)) {
      // Saved within the racy window of a record (by this process or another): reread it once.
      const savedAt = this.indexFile.savedAtNs()
      for (const [path, record] of this.state.records) if (isRacyAt(record, savedAt)) this.racy.add(path)
    }
  }

  private readEpoch(): string {
    const path = join(this.storeDir, 'epoch')
    try {
      return readFileSync(path, 'utf8')
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error
    }
    const epoch = newNonce()
    writeFileAtomic(path, epoch, true)
    return epoch
  }

  private assertNoRestorePending(): void {
    if (this.activeRestore) {
      throw snapshotError(SnapshotErrorNames.RestorePending, 'a restore is in progress in this engine')
    }
    if (existsSync(join(this.storeDir, 'restore-journal.json'))) {
      throw snapshotError(SnapshotErrorNames.RestorePending, 'an interrupted restore must be recovered first (recover())')
    }
  }

  private takeSnapshot(full: boolean, trustMarks = false, stopTicket?: number): SnapshotResult {
    const started = performance.now()
    // A changed .gitignore can add or remove any path below it: only a full walk can tell.
    const ignoreChanged = [...this.dirty].some(isGitignorePath)
    if (ignoreChanged) this.rules.invalidate()
    const walkAll = full || this.allDirty || (!this.feedLive && !trustMarks) || ignoreChanged
    const stats = emptyStats(walkAll)
    const scanner = new Scanner(
      {
        root: this.root,
        rules: this.rules,
        state: this.state,
        blobs: this.blobs,
        maxFileBytes: this.maxFileBytes,
        excluded: this.excluded,
        racy: this.racy,
        dirs: this.dirListings,
        stopRequested: stopAt(this.walkStop, stopTicket, this.walkStallMs),
      },
      stats,
    )
    const pending = walkAll ? [] : [...this.dirty, ...this.racy]
    this.allDirty = false
    this.dirty.clear()
    // New objects are buffered so a bulk change is written as one pack, then flushed blobs
    // first, trees next, stat index last: nothing on disk ever names an object not yet stored.
    this.blobs.beginBatch()
    this.trees.beginBatch()
    let id: SnapshotId
    let treeBytes = 0
    try {
      if (walkAll) scanner.full()
      else scanner.paths(pending)
      id = this.state.buildRoot((hash, bytes) => {
        const written = this.trees.put(hash, bytes)
        if (written > 0) {
          stats.treesWritten++
          treeBytes += written
        }
      })
      // A batch written loose is compressed now: its stored sizes change by what flush returns.
      stats.bytesWritten += this.blobs.flush()
      treeBytes += this.trees.flush()
    } catch (error) {
      if (error instanceof WalkStopped) throw this.keepStoppedWalk(stats)
      this.discardUnflushed()
      throw error
    }
    const blobBytes = stats.bytesWritten
    stats.bytesWritten += treeBytes
    this.indexFile.save(this.state, this.requireEpoch())
    if (this.usageCounters) {
      this.usageCounters.blobs.count += stats.blobsWritten
      this.usageCounters.blobs.bytes += blobBytes
      this.usageCounters.trees.count += stats.treesWritten
      this.usageCounters.trees.bytes += treeBytes
    }
    const changed = id !== this.lastId
    this.lastId = id
    stats.durationMs = performance.now() - started
    this.lastScan = stats
    return { id, changed, untracked: this.untrackedFiles(), stats }
  }

  /**
   * A walk stopped half way: what it hashed is stored and recorded in the stat index (facts about
   * those files, whatever the rest of the tree holds), so the next walk hashes only the rest. No
   * tree is built. Returns the `SnapshotWalkStopped` error to throw, or the failure to store.
   */
  private keepStoppedWalk(stats: ScanStats): Error {
    try {
      stats.bytesWritten += this.blobs.flush()
      this.trees.discardBatch()
      this.state.invalidateTrees()
      this.allDirty = true
      this.indexFile.save(this.state, this.requireEpoch())
    } catch (error) {
      this.discardUnflushed()
      return error as Error
    }
    if (this.usageCounters) {
      this.usageCounters.blobs.count += stats.blobsWritten
      this.usageCounters.blobs.bytes += stats.bytesWritten
    }
    this.lastScan = stats
    return snapshotError(SnapshotErrorNames.WalkStopped, `the walk of ${this.root} was stopped after ${stats.filesHashed} files were hashed`, {
      filesHashed: stats.filesHashed,
    })
  }

  /** After a failed snapshot: the index must not name objects never written; marks were consumed, so walk fully next time. */
  private discardUnflushed(): void {
    const dropped = this.blobs.discardBatch()
    this.trees.discardBatch()
    for (const [path, record] of [...this.state.records]) {
      if (record.entry.kind === 'file' && dropped.has(record.entry.hash)) this.state.delete(path)
    }
    this.state.invalidateTrees()
    this.allDirty = true
  }

  /** Files the tree as last scanned lists without content (over the size cap, unreadable). */
  private untrackedFiles(): SnapshotResult['untracked'] {
    return [...this.state.untracked].sort(compareNames).map((path) => {
      const entry = this.state.get(path)?.entry
      return entry?.kind === 'untracked'
        ? { path, size: entry.size, reason: entry.reason }
        : { path, size: 0, reason: 'unreadable' as const }
    })
  }

  private requireEpoch(): string {
    if (this.epoch === null) throw new Error('snapshot store is not open')
    return this.epoch
  }

  private computePreview(targetId: SnapshotId, options: RestoreOptions): RestorePreview {
    this.reader.assertExists(targetId)
    if (options.baselineId !== undefined) this.reader.assertExists(options.baselineId)
    scopeMatcher(options.paths) // validates the scope before any work
    const current = this.takeSnapshot(false)
    const changes = diffTrees(this.reader, current.id, targetId)
    let userChanges: Map<string, RawChange> | null = null
    if (options.baselineId !== undefined) {
      userChanges = new Map(diffTrees(this.reader, options.baselineId, current.id).map((c) => [c.path, c]))
    }
    return planRestore({
      targetId,
      currentId: current.id,
      baselineId: options.baselineId ?? null,
      changes,
      userChanges,
      current: this.state,
      options,
      disk: diskProbe(this.root),
    })
  }

  /** Applies one restore op and records its result in the stat index. */
  private applyOp(applier: RestoreApplier, op: JournalOp, index: number): void {
    if (op.op === 'delete') {
      applier.delete(op.path)
      this.state.delete(op.path)
      this.racy.delete(op.path)
    } else {
      applier.write(op.path, op.entry, index)
      this.recordWritten(op.path, op.entry)
    }
    if (isGitignorePath(op.path)) {
      // Ignore rules changed under us: what is in the tree must be decided afresh.
      this.rules.invalidate()
      this.allDirty = true
    }
  }

  /** A file the restore just wrote: its entry is known, only the stat signature is new. */
  private recordWritten(path: string, entry: ManifestEntry): void {
    const stats = lstatOrUndefined(join(this.root, path))
    if (!stats || stats === 'notdir') {
      this.dirty.add(path)
      return
    }
    this.state.set(path, { ...sigOf(stats), entry })
    // Just written: inside the racy window by definition.
    this.racy.add(path)
  }

  /** Puts small `before` contents into the journal (up to `MAX_SAVED_BYTES`); returns the hashes left to the store. */
  private saveBefores(journal: RestoreJournal): string[] {
    const saved: Record<string, string> = {}
    const unsaved: string[] = []
    let budget = MAX_SAVED_BYTES
    for (const op of journal.ops) {
      const before = op.before
      if (before?.kind !== 'file' || saved[before.hash] !== undefined) continue
      if (before.size > budget) {
        unsaved.push(before.hash)
        continue
      }
      saved[before.hash] = this.blobs.get(before.hash).toString('base64')
      budget -= before.size
    }
    if (Object.keys(saved).length > 0) journal.saved = saved
    return unsaved
  }

  private recoverLocked(prefer: 'complete' | 'rollback'): RecoverResult {
    const journal = readJournal(this.storeDir)
    if (!journal) return { action: 'none', unrecoverable: [] }
    // The tree is changing outside the normal flow: the next snapshot walks it all.
    this.allDirty = true
    this.rules.invalidate()
    return recoverRestore(this.storeDir, journal, new RestoreApplier(this.root, journalBlobs(journal, this.blobs), journal.nonce), this.reader, prefer)
  }

  private countUsage(): UsageCounters {
    const count = (store: ObjectStore) => {
      const objects = store.list()
      return { count: objects.length, bytes: objects.reduce((total, o) => total + o.bytes, 0) }
    }
    return { blobs: count(this.blobs), trees: count(this.trees) }
  }

  /** A project-relative `/` path from what a caller passes (relative or absolute inside the root). */
  private toRelative(raw: string): string {
    const rel = isAbsolute(raw) ? relative(this.root, raw) : raw
    const path = rel.split(sep).join('/').replace(/^(\.\/)+/, '').replace(/\/+$/, '')
    if (path === '.' || path === '') return ''
    if (path.startsWith('../') || path === '..' || isAbsolute(path)) {
      throw new HotaruError(ErrorNames.OutsideWorkspace, { message: `"${raw}" is outside the project`, path: raw })
    }
    return path
  }
}

/** `stopRequested` of a walk with `ticket`: true once the host raised the flag to it. */
function stopAt(flag: Int32Array | null, ticket: number | undefined, stallMs: number): (() => boolean) | undefined {
  if (!flag || ticket === undefined) return undefined
  let stall = stallMs
  return () => {
    // A test's stall: wait at the first check until stopped (`stopWalks` notifies) or the time is up.
    const until = performance.now() + stall
    stall = 0
    for (let seen = Atomics.load(flag, 0); seen < ticket && performance.now() < until; seen = Atomics.load(flag, 0)) {
      Atomics.wait(flag, 0, seen, until - performance.now())
    }
    return Atomics.load(flag, 0) >= ticket
  }
}
