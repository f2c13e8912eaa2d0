import { lstatSync, mkdirSync, statSync } from 'node:fs'
import { IgnoreRules } from '../project/ignore-rules'
import { IgnoreCache } from './ignore-cache'
import { type DirListing, emptyStats, isGitignorePath, isRacyAt, Scanner, sigOf } from './scanner'
import { StatIndexFile } from './stat-index-file'
import { sameEntry } from './tree-codec'
import type { TreeChange } from './tree-copy'
import { type IndexRecord, parentOf, TreeState } from './tree-state'
import type { Manifest, ScanStats } from './types'

/** The index of a copy says only what its files hashed to: it is not tied to the store's garbage collections. */
const COPY_EPOCH = 'copy'

/** Nothing is stored: comparing a copy with its base needs the hashes only. */
const DISCARD = { put: () => 0 }

/**
 * A stat index of a copy of the project (a worktree written by `materialize`), kept in memory
 * between comparisons and on disk in `indexDir`, so comparing the copy with its base costs an
 * `lstat` per file and reads only files whose signature changed: the same scanner as snapshots
 * (same ignore rules, racy-timestamp rule, exec bits, links, cached directory listings), with no
 * blob written, no tree built and nothing saved when nothing is new.
 */
export class CopyIndex {
  private readonly state = new TreeState()
  private readonly racy = new Set<string>()
  private readonly dirs = new Map<string, DirListing>()
  private readonly rules: IgnoreCache
  private readonly file: StatIndexFile
  /**
   * False while files of the copy just written are racy or their folders unlisted, so the next
   * comparison would read them again: `settle` does that once, while nobody waits.
   */
  private settled = true

  private constructor(
    readonly dir: string,
    readonly indexDir: string,
    private readonly maxFileBytes: number,
    extraExcludes: readonly string[],
  ) {
    this.rules = new IgnoreCache(new IgnoreRules(dir, extraExcludes))
    this.file = new StatIndexFile(indexDir)
  }

  /**
   * The index saved in `indexDir` (empty when there is none). A record that was within the racy
   * window of the last save may have changed since without its signature showing it: it is reread.
   */
  static load(dir: string, indexDir: string, maxFileBytes: number, extraExcludes: readonly string[]): CopyIndex {
    const index = new CopyIndex(dir, indexDir, maxFileBytes, extraExcludes)
    if (index.file.load(index.state, COPY_EPOCH)) {
      const savedAt = index.file.savedAtNs()
      for (const [path, record] of index.state.records) if (isRacyAt(record, savedAt)) index.racy.add(path)
    }
    return index
  }

  /**
   * An index of a copy just written from `manifest` (`materialize`): its files with the signatures they
   * were written with, and each folder's listing (the manifest's entries, which the same ignore rules
   * let in), so the first comparison neither lists folders nor reads files again, except those still
   * within the racy window now.
   */
  static seeded(
    dir: string,
    indexDir: string,
    maxFileBytes: number,
    extraExcludes: readonly string[],
    manifest: Manifest,
    records: Iterable<[string, IndexRecord]>,
  ): CopyIndex {
    const index = new CopyIndex(dir, indexDir, maxFileBytes, extraExcludes)
    const now = BigInt(Date.now()) * 1_000_000n
    for (const [path, record] of records) {
      index.state.set(path, record)
      if (isRacyAt(record, now)) index.racy.add(path)
    }
    const skippedDirs = index.seedListings(manifest, now)
    index.settled = index.racy.size === 0 && skippedDirs === 0
    index.save()
    return index
  }

  /** Seeds folder listings; returns how many folders were left for the next scan (changed within the racy window). */
  private seedListings(manifest: Manifest, now: bigint): number {
    const listings = new Map<string, { files: string[]; dirs: string[] }>([['', { files: [], dirs: [] }]])
    const listingOf = (folder: string): { files: string[]; dirs: string[] } => {
      let listing = listings.get(folder)
      if (!listing) {
        listing = { files: [], dirs: [] }
        listings.set(folder, listing)
        const parent = parentOf(folder)
        listingOf(parent).dirs.push(folder)
      }
      return listing
    }
    for (const path of manifest.keys()) listingOf(parentOf(path)).files.push(path)
    const generation = this.rules.generation
    let skipped = 0
    for (const [folder, { files, dirs }] of listings) {
      const abs = folder === '' ? this.dir : `${this.dir}/${folder}`
      const stats = folder === '' ? statSync(abs, { bigint: true }) : lstatSync(abs, { bigint: true })
      // A folder changed within the racy window is listed again by the first comparison, as the scanner would.
      if (!stats.isDirectory() || isRacyAt(stats, now)) {
        skipped++
        continue
      }
      this.dirs.set(folder, { ...sigOf(stats), generation, files, dirs, gitignore: files.find(isGitignorePath) ?? null })
    }
    return skipped
  }

  /** True when the copy was just written and the next comparison would read files or list folders that did not change (see `settle`). */
  get unsettled(): boolean {
    return !this.settled
  }

  /**
   * Brings the index up to date while nobody waits for it: rereads the files that were racy and lists
   * the folders not yet listed, once their racy window has passed, so the next comparison (the merge
   * preview a user asked for) costs an `lstat` per file and reads only what changed.
   */
  settle(): ScanStats {
    // Once only, even if the walk fails (the copy is being removed): the next comparison walks it anyway.
    this.settled = true
    const stats = this.scan()
    // Every record was just checked: a later process need not reread the files written at creation.
    this.file.touch()
    return stats
  }

  /** Files of the copy that differ from `base`, sorted by path; the index is brought up to date (and saved if it changed). */
  changes(base: Manifest): { changes: TreeChange[]; stats: ScanStats } {
    const stats = this.scan()
    const changes: TreeChange[] = []
    for (const [path, record] of this.state.records) {
      const before = base.get(path)
      if (!before) changes.push({ path, status: 'added' })
      else if (!sameEntry(before, record.entry)) changes.push({ path, status: 'modified' })
    }
    for (const path of base.keys()) if (!this.state.records.has(path)) changes.push({ path, status: 'deleted' })
    changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    return { changes, stats }
  }

  /** One walk of the copy with the snapshot scanner; saves the records that changed. */
  private scan(): ScanStats {
    const stats = emptyStats(true)
    const started = performance.now()
    new Scanner(
      {
        root: this.dir,
        rules: this.rules,
        state: this.state,
        blobs: DISCARD,
        maxFileBytes: this.maxFileBytes,
        excluded: new Set(),
        racy: this.racy,
        dirs: this.dirs,
      },
      stats,
    ).full()
    this.settled = true
    this.save()
    stats.durationMs = performance.now() - started
    return stats
  }

  private save(): void {
    mkdirSync(this.indexDir, { recursive: true })
    this.file.save(this.state, COPY_EPOCH)
  }
}
