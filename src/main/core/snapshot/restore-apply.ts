import {
  type BigIntStats,
  closeSync,
  constants,
  fchmodSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { removeQuietly } from './atomic-file'
import { errnoCode, SnapshotErrorNames, snapshotError } from './errors'
import { sha256 } from './object-store'
import type { BlobSource } from './restore-journal'
import { isSafeName } from './tree-codec'
import { parentOf } from './tree-state'
import type { FileEntry, SymlinkEntry } from './types'

/**
 * Applies restore operations to the working tree, one path at a time, each step safe to
 * repeat (so an interrupted restore can be completed or rolled back from its journal).
 * Link temp names derive from the restore's nonce and the op's index, so recovery knows every
 * temp file a crash may have left behind. Nothing is written through a symlink (directory
 * or file), `.git` is never touched, and directories are only removed when empty.
 */
export class RestoreApplier {
  private readonly realDirs = new Set<string>([''])

  constructor(
    private readonly root: string,
    private readonly blobs: BlobSource,
    private readonly nonce: string,
  ) {}

  tempPath(path: string, index: number): string {
    return join(this.root, parentOf(path), `.hotaru-restore-${this.nonce}-${index}`)
  }

  /** Deletes a file or link (never a directory), then removes directories it leaves empty. */
  delete(path: string): boolean {
    assertSafePath(path)
    const abs = join(this.root, path)
    // Below a link or file, the path is not ours any more: never unlink through a symlinked directory.
    if (!this.isRealDir(parentOf(path))) return false
    const stats = this.lstat(path)
    if (!stats) return false
    if (stats.isDirectory()) {
      throw snapshotError(SnapshotErrorNames.Blocked, `"${path}" became a directory; it is not deleted`, { path })
    }
    unlinkSync(abs)
    this.pruneEmptyParents(path)
    return true
  }

  /**
   * Writes a file or link at `path`. An existing regular file is rewritten in place, so it
   * keeps its inode, owner, extended attributes and other permission bits (only the exec bit
   * follows the snapshot) and editors holding it open see the change; a new file is created
   * at its path. A crash mid-write leaves a torn file that the journal's recovery rewrites.
   * Links are created under a temp name (`index` names it) and renamed over the old path.
   */
  write(path: string, entry: FileEntry | SymlinkEntry, index: number): void {
    assertSafePath(path)
    this.ensureDir(parentOf(path))
    const abs = join(this.root, path)
    let existing = this.lstat(path)
    if (existing?.isDirectory()) {
      this.removeEmptyTree(path)
      existing = undefined
    }
    if (entry.kind === 'symlink') {
      // Temp files of an interrupted earlier attempt are removed by recovery before it re-applies ops.
      const temp = this.tempPath(path, index)
      try {
        symlinkSync(entry.target, temp)
        renameSync(temp, abs)
      } catch (error) {
        removeQuietly(temp)
        throw error
      }
      return
    }
    const data = this.blobs.get(entry.hash)
    if (existing?.isFile() && this.rewriteInPlace(abs, data, withExecBit(Number(existing.mode) & 0o7777, entry.exec))) return
    if (existing) unlinkSync(abs) // a link, or a file we may not open for writing: replaced, not followed
    // New files get 0666/0777 minus the umask, as any tool would create them.
    writeFileSync(abs, data, { flag: 'wx', mode: entry.exec ? 0o777 : 0o666 })
  }

  /** Overwrites an existing file's content and mode; false when it cannot be opened for writing (read-only). */
  private rewriteInPlace(abs: string, data: Buffer, mode: number): boolean {
    let fd: number
    try {
      // O_NOFOLLOW: the lstat said "file", but never write through a link that replaced it since.
      fd = openSync(abs, constants.O_WRONLY | constants.O_NOFOLLOW)
    } catch (error) {
      const code = errnoCode(error)
      if (code === 'EACCES' || code === 'EPERM' || code === 'ELOOP') return false
      throw error
    }
    try {
      ftruncateSync(fd, 0)
      let offset = 0
      while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset, offset)
      fchmodSync(fd, mode)
    } finally {
      closeSync(fd)
    }
    return true
  }

  /** True when the disk already holds exactly `entry` at `path` (or nothing, for null). */
  matches(path: string, entry: FileEntry | SymlinkEntry | null): boolean {
    const stats = this.isRealDir(parentOf(path)) ? this.lstat(path) : undefined
    if (!entry) return !stats
    if (!stats) return false
    const abs = join(this.root, path)
    if (entry.kind === 'symlink') return stats.isSymbolicLink() && readlinkSync(abs) === entry.target
    if (!stats.isFile() || Number(stats.size) !== entry.size) return false
    if (((Number(stats.mode) & 0o100) !== 0) !== entry.exec) return false
    return sha256(readFileSync(abs)) === entry.hash
  }

  removeTemp(path: string, index: number): void {
    removeQuietly(this.tempPath(path, index))
  }

  /** True when every component of `dir` is a real directory (not a link, not missing). */
  private isRealDir(dir: string): boolean {
    if (this.realDirs.has(dir)) return true
    if (!this.isRealDir(parentOf(dir))) return false
    if (!this.lstat(dir)?.isDirectory()) return false
    this.realDirs.add(dir)
    return true
  }

  /** Creates the directory chain of `dir`; refuses to go through anything that is not a real directory. */
  private ensureDir(dir: string): void {
    if (this.realDirs.has(dir)) return
    this.ensureDir(parentOf(dir))
    const stats = this.lstat(dir)
    if (!stats) mkdirSync(join(this.root, dir))
    else if (!stats.isDirectory()) {
      throw snapshotError(SnapshotErrorNames.Blocked, `"${dir}" is not a directory; nothing is written through it`, {
        path: dir,
      })
    }
    this.realDirs.add(dir)
  }

  /** Removes a directory that holds only empty directories; anything else in it blocks the write. */
  private removeEmptyTree(path: string): void {
    const abs = join(this.root, path)
    for (const dirent of readdirSync(abs, { withFileTypes: true })) {
      if (!dirent.isDirectory() || dirent.name === '.git') {
        throw snapshotError(SnapshotErrorNames.Blocked, `"${path}" is a non-empty directory; it is not replaced`, { path })
      }
      this.removeEmptyTree(`${path}/${dirent.name}`)
    }
    rmdirSync(abs)
    this.forgetDirs(path)
  }

  private pruneEmptyParents(path: string): void {
    for (let dir = parentOf(path); dir !== ''; dir = parentOf(dir)) {
      try {
        rmdirSync(join(this.root, dir))
        this.forgetDirs(dir)
      } catch (error) {
        const code = errnoCode(error)
        if (code === 'ENOENT') continue
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') {
          console.warn(`[snapshot] cannot remove empty directory ${dir}: ${(error as Error).message}`)
        }
        return
      }
    }
  }

  private forgetDirs(dir: string): void {
    for (const known of this.realDirs) {
      if (known === dir || known.startsWith(`${dir}/`)) this.realDirs.delete(known)
    }
  }

  private lstat(path: string): BigIntStats | undefined {
    try {
      return lstatSync(join(this.root, path), { bigint: true, throwIfNoEntry: false })
    } catch (error) {
      if (errnoCode(error) === 'ENOTDIR') return undefined
      throw error
    }
  }
}

/** Sets the exec bits where read bits are (as git does), or clears them all. */
export function withExecBit(mode: number, exec: boolean): number {
  return exec ? mode | ((mode & 0o444) >> 2) : mode & ~0o111
}

/** Refuses paths that could leave the project or enter `.git`, whatever a journal or tree says. */
export function assertSafePath(path: string): void {
  if (!path.split('/').every(isSafeName)) {
    throw snapshotError(SnapshotErrorNames.Corrupt, `refusing unsafe path ${JSON.stringify(path)}`, { path })
  }
}
