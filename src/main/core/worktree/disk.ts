import { lstat, mkdir, readFile, readlink, rm, rmdir, symlink, unlink } from 'node:fs/promises'
import { chmodSync, lstatSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { resolveInside } from '../project/boundary'
import { writeFileAtomic } from '../util/atomic-write'

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

async function lstatOrNull(abs: string) {
  try {
    return await lstat(abs)
  } catch (error) {
    if (isMissing(error)) return null
    throw error
  }
}

/** The folder holding `path` inside `root`, resolved through links and refused when one leads out. */
function targetOf(root: string, path: string): string {
  return join(resolveInside(root, dirname(path)), basename(path))
}

/**
 * A file's content as a merge compares it: bytes of a file, the target of a link, null when absent (or a
 * folder). The folders on the way are resolved inside `root`: a link to a folder elsewhere is not followed out.
 */
export async function readSide(root: string, path: string): Promise<Buffer | null> {
  let abs: string
  try {
    abs = targetOf(root, path)
  } catch (error) {
    if (isMissing(error)) return null
    throw error
  }
  try {
    const stats = await lstat(abs)
    if (stats.isSymbolicLink()) return Buffer.from(await readlink(abs), 'utf8')
    if (!stats.isFile()) return null
    return await readFile(abs)
  } catch (error) {
    if (isMissing(error)) return null
    throw error
  }
}

/** Byte-equal content on both sides (both absent counts as equal). */
export async function sameContent(rootA: string, rootB: string, path: string): Promise<boolean> {
  const [a, b] = await Promise.all([readSide(rootA, path), readSide(rootB, path)])
  if (a === null || b === null) return a === b
  return a.equals(b)
}

/** Puts the worktree's version of `path` (file with its exec bit, or link) into `root`. */
export async function copyInto(fromRoot: string, root: string, path: string): Promise<void> {
  const source = targetOf(fromRoot, path)
  const target = targetOf(root, path)
  const stats = lstatSync(source)
  const existing = await lstatOrNull(target)
  if (stats.isSymbolicLink()) {
    const link = await readlink(source)
    await mkdir(dirname(target), { recursive: true })
    if (existing) await rm(target, { recursive: existing.isDirectory() })
    await symlink(link, target)
    return
  }
  if (existing && !existing.isFile()) await rm(target, { recursive: existing.isDirectory() })
  await writeFileAtomic(target, await readFile(source))
  const exec = stats.mode & 0o111
  const mode = lstatSync(target).mode & 0o7777
  if ((mode & 0o111) !== exec) chmodSync(target, (mode & ~0o111) | exec)
}

/** Deletes `path` from `root` (a file or link) and the folders it leaves empty; false when it was not there. */
export async function deleteFrom(root: string, path: string): Promise<boolean> {
  const target = targetOf(root, path)
  const existing = await lstatOrNull(target)
  if (!existing || existing.isDirectory()) return false
  await unlink(target)
  for (let dir = dirname(target); dir.startsWith(`${root}/`); dir = dirname(dir)) {
    try {
      await rmdir(dir)
    } catch (error) {
      // Not empty: the folders above are not empty either.
      if ((error as NodeJS.ErrnoException).code === 'ENOTEMPTY' || (error as NodeJS.ErrnoException).code === 'EEXIST') break
      throw error
    }
  }
  return true
}

/** `path` in `root` is a regular file (not a link, a folder or absent). */
export async function isRegularFile(root: string, path: string): Promise<boolean> {
  let abs: string
  try {
    abs = targetOf(root, path)
  } catch (error) {
    if (isMissing(error)) return false
    throw error
  }
  return (await lstatOrNull(abs))?.isFile() === true
}

/** Writes `data` as `path` in `root` (a merged file): atomically, the existing file's mode kept. */
export async function writeInto(root: string, path: string, data: Buffer): Promise<void> {
  const target = targetOf(root, path)
  const existing = await lstatOrNull(target)
  if (existing && !existing.isFile()) await rm(target, { recursive: existing.isDirectory() })
  await writeFileAtomic(target, data)
}
