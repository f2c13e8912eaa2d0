import { assertNotSpecial } from '../util/regular-file'
import { writeFileAtomic } from '../util/atomic-write'
import { assertRootExists, isProjectMissing, makeFoldersBelowSync } from '../util/project-anchor'
import { lstatSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { DirEntry } from '@shared/schema/fs'
import { FsErrorNames } from '@shared/schema/fs-errors'
import { resolveInside } from './boundary'
import { describeEntry, fsError } from './files'
import type { IgnoreRules } from './ignore-rules'

/**
 * Mtimes read back from disk can differ from the value the client saw by float
 * rounding across JSON; anything closer than this is the same write.
 */
const MTIME_TOLERANCE_MS = 1

/**
 * The absolute path of `rel` itself, not what it points at: the parent folder is
 * resolved through the boundary (so a parent that is a link leading outside is
 * refused), the last segment is kept as is. Used where the operation acts on a
 * directory entry (rename, delete, create) rather than on file contents.
 */
export function resolveEntry(root: string, rel: string): string {
  const name = basename(rel)
  if (rel === '' || name === '' || name === '.' || name === '..') {
    throw new HotaruError(ErrorNames.OutsideWorkspace, { message: `"${rel}" does not name an entry inside the project`, path: rel })
  }
  const parentRel = dirname(rel) === '.' ? '' : dirname(rel)
  return join(resolveInside(root, parentRel), name)
}

function lstatOrNull(abs: string): Stats | null {
  try {
    return lstatSync(abs)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

function exists(rel: string): HotaruError {
  return new HotaruError(FsErrorNames.AlreadyExists, { message: `"${rel}" already exists`, path: rel })
}

/**
 * Writes text to a file inside the project, following symlinks only when they
 * stay inside. With `expectedMtimeMs` the write is refused when the file changed
 * on disk since the caller read it, so an editor never silently overwrites an
 * edit made by someone else (the agent, another tool).
 */
export async function writeTextFile(
  root: string,
  rel: string,
  content: string,
  expectedMtimeMs?: number,
): Promise<{ path: string; size: number; mtimeMs: number }> {
  assertRootExists(root)
  const abs = resolveInside(root, rel)
  let current: Stats | null = null
  try {
    current = statSync(abs)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fsError(rel, error)
  }
  if (current?.isDirectory()) throw new HotaruError(ErrorNames.InvalidPayload, { message: `"${rel}" is a directory`, path: rel })
  // A FIFO would block the write until a reader comes; a device is not a file the editor may replace.
  if (current) assertNotSpecial(current, rel)
  if (expectedMtimeMs !== undefined) {
    const changed = current === null || Math.abs(current.mtimeMs - expectedMtimeMs) > MTIME_TOLERANCE_MS
    if (changed) {
      throw new HotaruError(FsErrorNames.Conflict, {
        message: current ? `"${rel}" changed on disk since it was opened` : `"${rel}" was deleted on disk since it was opened`,
        path: rel,
        mtimeMs: current?.mtimeMs ?? null,
      })
    }
  }
  try {
    // Temp file + rename: a reader never sees half a file, and a hard link elsewhere keeps its old content
    // (the project's name for the file gets a new inode; the mode is kept).
    await writeFileAtomic(abs, content, { root })
    const after = statSync(abs)
    return { path: rel, size: after.size, mtimeMs: after.mtimeMs }
  } catch (error) {
    if (isProjectMissing(error)) throw error
    throw fsError(rel, error)
  }
}

export function createEntry(root: string, rel: string, kind: 'file' | 'dir', rules: IgnoreRules): DirEntry {
  assertRootExists(root)
  const abs = resolveEntry(root, rel)
  if (lstatOrNull(abs)) throw exists(rel)
  try {
    makeFoldersBelowSync(root, dirname(abs))
    if (kind === 'dir') mkdirSync(abs)
    // 'wx': fails if something appeared in the meantime instead of truncating it.
    else writeFileSync(abs, '', { flag: 'wx' })
  } catch (error) {
    if (isProjectMissing(error)) throw error
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw exists(rel)
    throw fsError(rel, error)
  }
  return describeEntry(root, rel, abs, lstatSync(abs), rules)
}

export function renameEntry(root: string, from: string, to: string, rules: IgnoreRules): DirEntry {
  const source = resolveEntry(root, from)
  const target = resolveEntry(root, to)
  const sourceStats = lstatOrNull(source)
  if (!sourceStats) throw fsError(from, Object.assign(new Error('missing'), { code: 'ENOENT' }))
  if (to === from || to.startsWith(`${from}/`)) {
    throw new HotaruError(ErrorNames.InvalidPayload, { message: `cannot move "${from}" into itself`, path: to })
  }
  // A case-only rename on a case-insensitive disk finds the source under the new name: that is not a clash.
  const clash = lstatOrNull(target)
  if (clash && (clash.ino !== sourceStats.ino || clash.dev !== sourceStats.dev)) throw exists(to)
  try {
    makeFoldersBelowSync(root, dirname(target))
    renameSync(source, target)
  } catch (error) {
    if (isProjectMissing(error)) throw error
    throw fsError(from, error)
  }
  return describeEntry(root, to, target, lstatSync(target), rules)
}

/** Deletes a file, a symlink (not its target) or a folder recursively. */
export function deleteEntry(root: string, rel: string): boolean {
  const abs = resolveEntry(root, rel)
  if (!lstatOrNull(abs)) return false
  try {
    rmSync(abs, { recursive: true, force: false })
  } catch (error) {
    throw fsError(rel, error)
  }
  return true
}
