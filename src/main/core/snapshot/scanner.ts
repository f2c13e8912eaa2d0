import { type BigIntStats, closeSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs'
import { gitignoreFolder } from '../project/ignore-rules'
import { errnoCode } from './errors'
import type { IgnoreCache } from './ignore-cache'
import { sha256 } from './object-store'
import { readUpTo } from './pack-file'
import { type IndexRecord, parentOf, type StatSig, type TreeState } from './tree-state'
import type { ManifestEntry, ScanStats } from './types'

/**
 * A file whose mtime or ctime is this close to the scan may still change within the same
 * timestamp tick without its stat signature changing ("racy git"); it is rehashed at the
 * next scan whatever its signature says. The tick is the kernel's coarse clock (a few ms)
 * on file systems with sub-second timestamps; timestamps on whole seconds suggest a
 * 1-2 s granularity file system (FAT, HFS+), where the window must cover that.
 */
const RACY_WINDOW_FINE_NS = 200_000_000n
const RACY_WINDOW_COARSE_NS = 2_000_000_000n
const SECOND_NS = 1_000_000_000n

/** Where hashed content goes: the object store, or nowhere when only the hashes matter (a copy's comparison). */
export interface BlobSink {
  /** Stores `data` under `hash`; returns the bytes written (0 when it was there already). */
  put(hash: string, data: Buffer): number
}

/**
 * Whether a file with these timestamps, stat'ed at `atNs` (ns since the epoch), may still change
 * within the same timestamp tick without its signature changing: then only its content can tell.
 */
export function isRacyAt(stats: { mtimeNs: bigint; ctimeNs: bigint }, atNs: bigint): boolean {
  const touched = stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs
  const coarse = stats.mtimeNs % SECOND_NS === 0n && stats.ctimeNs % SECOND_NS === 0n
  return touched + (coarse ? RACY_WINDOW_COARSE_NS : RACY_WINDOW_FINE_NS) >= atNs
}

export interface ScanContext {
  root: string
  rules: IgnoreCache
  state: TreeState
  blobs: BlobSink
  maxFileBytes: number
  /** Paths never walked, e.g. the store itself when it lives inside the project. */
  excluded: ReadonlySet<string>
  /** Paths to rehash at the next scan even if their signature is unchanged. */
  racy: Set<string>
  /** Directory listings of earlier walks, reused while a directory's stat is unchanged. */
  dirs: Map<string, DirListing>
  /**
   * Asked every `STOP_CHECK_FILES` files: true ends the scan with `WalkStopped` (a walk nobody needs
   * finished any more). Records and content read so far are kept and true: only the walk is unfinished.
   */
  stopRequested?: () => boolean
}

/** Files visited between two checks of `stopRequested` (a few milliseconds of hashing). */
export const STOP_CHECK_FILES = 256

/** A scan ended by `stopRequested`: what it read is in the state, what it did not is not. */
export class WalkStopped extends Error {
  constructor() {
    super('the walk was stopped before it was done')
    this.name = 'WalkStopped'
  }
}

export interface DirListing extends StatSig {
  /** `IgnoreCache.generation` the listing was filtered with. */
  generation: number
  /** Non-ignored files and links, as project paths. */
  files: string[]
  /** Non-ignored subdirectories, as project paths. */
  dirs: string[]
  /** This directory's `.gitignore` path, if it has one: an in-place edit changes rules without touching the directory. */
  gitignore: string | null
}

export function emptyStats(full: boolean): ScanStats {
  return {
    full,
    filesStatted: 0,
    dirsRead: 0,
    filesHashed: 0,
    blobsWritten: 0,
    treesWritten: 0,
    bytesWritten: 0,
    durationMs: 0,
    errors: [],
  }
}

/** True for paths that are `.git` or lie inside one, at any depth: never read, never written. */
export function isInGitDir(path: string): boolean {
  return path === '.git' || path.startsWith('.git/') || path.endsWith('/.git') || path.includes('/.git/')
}

/**
 * Brings the stat index up to date with the disk: either a full walk, or a visit of given
 * dirty paths only (the change feed's increments). Sync `lstat`/`readdir` on purpose: about
 * 4× faster than per-file promises for this access pattern. New content goes to the blob
 * store as it is hashed, so the index never names a hash the store lacks.
 */
export class Scanner {
  private readonly scanStartNs = BigInt(Date.now()) * 1_000_000n
  private visits = 0

  constructor(
    private readonly ctx: ScanContext,
    private readonly stats: ScanStats,
  ) {}

  /** Walks the whole tree; records not seen are removed. */
  full(): void {
    const walk = nextWalk()
    this.walkDir('', walk)
    const unseen: string[] = []
    for (const [path, record] of this.ctx.state.records) if (record.walk !== walk) unseen.push(path)
    for (const path of unseen) this.forget(path)
  }

  /** Visits only `paths` (files or directories, new, changed or gone). */
  paths(paths: Iterable<string>): void {
    // Shallow first, so a directory replaced by a file or link is settled before its old children.
    const sorted = [...paths].sort((a, b) => depthOf(a) - depthOf(b))
    const realDirs = new Set<string>([''])
    for (const path of sorted) this.visitPath(path, realDirs)
  }

  private visitPath(path: string, realDirs: Set<string>): void {
    const { state, rules } = this.ctx
    if (path === '' || isInGitDir(path) || this.isExcluded(path)) return
    // Never follow a link or file that replaced a directory on the way: visit that ancestor instead.
    const blocker = this.firstNonDirAncestor(path, realDirs)
    if (blocker !== null) {
      if (blocker !== path) this.visitPath(blocker, realDirs)
      this.forgetTree(path)
      return
    }
    const stats = this.lstat(path)
    if (!stats) {
      this.forgetTree(path)
      return
    }
    if (stats.isDirectory()) {
      if (state.get(path)) this.forget(path)
      if (rules.isIgnored(path, true)) {
        state.deleteUnder(path)
        return
      }
      realDirs.add(path)
      const walk = nextWalk()
      this.walkDir(path, walk)
      for (const known of state.pathsUnder(path)) if (state.get(known)?.walk !== walk) this.forget(known)
      return
    }
    if (rules.isIgnored(path, false)) this.forgetTree(path)
    else this.visitFile(path, stats)
  }

  /** The first ancestor of `path` (or `path`'s own parent chain) that is not a directory on disk, or null. */
  private firstNonDirAncestor(path: string, realDirs: Set<string>): string | null {
    const chain: string[] = []
    for (let dir = parentOf(path); !realDirs.has(dir); dir = parentOf(dir)) chain.push(dir)
    for (let i = chain.length - 1; i >= 0; i--) {
      const dir = chain[i] as string
      const stats = this.lstat(dir)
      if (!stats || !stats.isDirectory()) return dir
      realDirs.add(dir)
    }
    return null
  }

  /**
   * Visits what is below `dir`, stamping every record seen with `walk`. A directory whose
   * stat is unchanged since its last listing (and whose ignore rules are unchanged) has the
   * same entries, so its cached listing replaces `readdir` and the ignore checks, as git's
   * untracked cache does; its files are still lstat'ed, since content changes leave a
   * directory's mtime alone.
   */
  private walkDir(dir: string, walk: number): void {
    const { rules, state } = this.ctx
    // The root may itself be a link to the project (opened through a symlinked path): follow that one.
    const dirStats = dir === '' ? statSync(this.ctx.root, { bigint: true }) : this.lstat(dir)
    if (!dirStats?.isDirectory()) return
    const cached = this.ctx.dirs.get(dir)
    if (cached && cached.generation === rules.generation && statsMatch(cached, dirStats) && this.gitignoreUnchanged(cached)) {
      for (const path of cached.files) {
        const record = this.visitFile(path)
        if (record) record.walk = walk
      }
      for (const sub of cached.dirs) this.walkDir(sub, walk)
      return
    }
    let dirents
    try {
      dirents = readdirSync(absolute(this.ctx.root, dir), { withFileTypes: true })
    } catch (error) {
      const code = errnoCode(error)
      if (code === 'ENOENT' || code === 'ENOTDIR') return
      // Unlistable: keep what we knew below it rather than report those files deleted.
      this.stats.errors.push({ path: dir, message: (error as Error).message, folder: true })
      for (const known of state.pathsUnder(dir)) {
        const record = state.get(known)
        if (record) record.walk = walk
      }
      return
    }
    this.stats.dirsRead++
    this.refreshIgnoreRules(dir, dirents.some((d) => d.name === '.gitignore'))
    const generation = rules.generation
    const files: string[] = []
    const dirs: string[] = []
    for (const dirent of dirents) {
      const name = dirent.name
      if (name === '.git') continue
      const path = dir === '' ? name : `${dir}/${name}`
      if (this.ctx.excluded.has(path)) continue
      let isDir = dirent.isDirectory()
      let isFile = dirent.isFile() || dirent.isSymbolicLink()
      let known: BigIntStats | undefined
      if (!isDir && !isFile && !dirent.isFIFO() && !dirent.isSocket() && !dirent.isBlockDevice() && !dirent.isCharacterDevice()) {
        // The file system did not say what it is (DT_UNKNOWN): ask lstat.
        known = this.lstat(path)
        isDir = known?.isDirectory() === true
        isFile = known !== undefined && (known.isFile() || known.isSymbolicLink())
      }
      // Sockets, FIFOs and devices are not project content (reading a FIFO would block): skipped.
      if (isDir) {
        if (rules.isIgnored(path, true)) continue
        dirs.push(path)
        this.walkDir(path, walk)
      } else if (isFile) {
        if (rules.isIgnored(path, false)) continue
        files.push(path)
        const record = this.visitFile(path, known)
        if (record) record.walk = walk
      }
    }
    // A directory changed within the racy window may change again unseen in the same tick: list it again next time.
    if (this.isRacy(dirStats)) this.ctx.dirs.delete(dir)
    else this.ctx.dirs.set(dir, { ...sigOf(dirStats), generation, files, dirs, gitignore: files.find(isGitignorePath) ?? null })
  }

  /** For a cached listing: false (and rules dropped) when the directory's `.gitignore` changed in place. */
  private gitignoreUnchanged(listing: DirListing): boolean {
    if (listing.gitignore === null) return true
    const known = this.ctx.state.get(listing.gitignore)
    const stats = this.lstat(listing.gitignore)
    if (known && stats && statsMatch(known, stats) && !this.ctx.racy.has(listing.gitignore)) return true
    this.ctx.rules.invalidate(parentOf(listing.gitignore))
    return false
  }

  private isRacy(stats: BigIntStats): boolean {
    return isRacyAt(stats, this.scanStartNs)
  }

  /** Drops cached rules of `dir` when its `.gitignore` appeared, vanished or changed since the last scan. */
  private refreshIgnoreRules(dir: string, present: boolean): void {
    const path = dir === '' ? '.gitignore' : `${dir}/.gitignore`
    const known = this.ctx.state.get(path)
    if (!present) {
      if (known) this.ctx.rules.invalidate(dir)
      return
    }
    const stats = this.lstat(path)
    if (!known || !stats || !statsMatch(known, stats) || this.ctx.racy.has(path)) this.ctx.rules.invalidate(dir)
  }

  /** Brings one file or link up to date; returns its record, or undefined if it is not (or no longer) there. */
  private visitFile(path: string, known?: BigIntStats): IndexRecord | undefined {
    // Checked before anything about this file changes, so a stop leaves every record whole.
    if (++this.visits % STOP_CHECK_FILES === 0 && this.ctx.stopRequested?.()) throw new WalkStopped()
    const stats = known ?? this.lstat(path)
    if (!stats) {
      this.forgetTree(path)
      return undefined
    }
    if (!stats.isFile() && !stats.isSymbolicLink()) {
      this.forget(path)
      return undefined
    }
    const previous = this.ctx.state.get(path)
    if (previous && statsMatch(previous, stats) && !this.ctx.racy.has(path)) return previous
    const sig = sigOf(stats)
    const entry = this.readEntry(path, stats, sig)
    if (!entry) {
      this.forgetTree(path)
      return undefined
    }
    const record: IndexRecord = { ...sig, entry }
    this.ctx.state.set(path, record)
    if (this.isRacy(stats)) this.ctx.racy.add(path)
    else this.ctx.racy.delete(path)
    return this.ctx.state.get(path)
  }

  /** The entry for a file or link; null if it vanished meanwhile. Unreadable files become untracked entries. */
  private readEntry(path: string, stats: BigIntStats, sig: StatSig): ManifestEntry | null {
    const abs = absolute(this.ctx.root, path)
    try {
      if (stats.isSymbolicLink()) {
        const target = readlinkSync(abs)
        return { kind: 'symlink', target, size: Buffer.byteLength(target) }
      }
      if (sig.size > this.ctx.maxFileBytes) return { kind: 'untracked', reason: 'too-large', size: sig.size }
      const data = readKnownSize(abs, sig.size)
      if (data.length > this.ctx.maxFileBytes) return { kind: 'untracked', reason: 'too-large', size: data.length }
      const hash = sha256(data)
      this.stats.filesHashed++
      const written = this.ctx.blobs.put(hash, data)
      if (written > 0) {
        this.stats.blobsWritten++
        this.stats.bytesWritten += written
      }
      return { kind: 'file', hash, size: data.length, exec: (sig.mode & 0o100) !== 0 }
    } catch (error) {
      const code = errnoCode(error)
      if (code === 'ENOENT' || code === 'ENOTDIR') return null
      if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR' || code === 'EINVAL') {
        this.stats.errors.push({ path, message: (error as Error).message })
        return { kind: 'untracked', reason: 'unreadable', size: sig.size }
      }
      throw error
    }
  }

  private lstat(path: string): BigIntStats | undefined {
    this.stats.filesStatted++
    try {
      return lstatSync(absolute(this.ctx.root, path), { bigint: true, throwIfNoEntry: false })
    } catch (error) {
      if (errnoCode(error) === 'ENOTDIR') return undefined
      throw error
    }
  }

  private isExcluded(path: string): boolean {
    for (const excluded of this.ctx.excluded) {
      if (path === excluded || path.startsWith(`${excluded}/`)) return true
    }
    return false
  }

  private forget(path: string): void {
    this.ctx.state.delete(path)
    this.ctx.racy.delete(path)
  }

  private forgetTree(path: string): void {
    this.forget(path)
    for (const known of this.ctx.state.pathsUnder(path)) this.ctx.racy.delete(known)
    this.ctx.state.deleteUnder(path)
  }
}

/**
 * A file's content when its size is known from the stat just taken: open, read, close, without
 * the `fstat` and growing buffer `readFileSync` spends on every one of tens of thousands of files.
 * One byte more is asked for, so a file that grew since is still read whole (the slow way).
 */
export function readKnownSize(abs: string, size: number): Buffer {
  const fd = openSync(abs, 'r')
  try {
    const data = readUpTo(fd, 0, size + 1)
    // The positional read left the file offset at 0: this reads it from the start.
    return data.length > size ? readFileSync(fd) : data
  } finally {
    closeSync(fd)
  }
}

/** Compares without allocating: this runs for every file of every full rescan. */
function statsMatch(sig: StatSig, stats: BigIntStats): boolean {
  return (
    sig.mtimeNs === stats.mtimeNs &&
    sig.ctimeNs === stats.ctimeNs &&
    sig.ino === stats.ino &&
    sig.size === Number(stats.size) &&
    sig.mode === Number(stats.mode)
  )
}

let walkCounter = 0

function nextWalk(): number {
  walkCounter = (walkCounter + 1) % Number.MAX_SAFE_INTEGER
  return walkCounter
}

/** `root` + `/` + a relative `/` path: plain concatenation (path.join normalizes, costly per file); Windows accepts `/`. */
export function absolute(root: string, rel: string): string {
  return rel === '' ? root : `${root}/${rel}`
}

export function sigOf(stats: BigIntStats): StatSig {
  return {
    size: Number(stats.size),
    mtimeNs: stats.mtimeNs,
    ctimeNs: stats.ctimeNs,
    ino: stats.ino,
    mode: Number(stats.mode),
  }
}

export function isGitignorePath(path: string): boolean {
  return gitignoreFolder(path) !== null
}

function depthOf(path: string): number {
  let depth = 0
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) depth++
  return depth
}
