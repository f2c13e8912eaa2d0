import { copyFile, lstat, mkdir, readFile, readlink, symlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { git, nulRecords } from './git'

/** The file listing ignored files a new worktree gets copied in (gitignore syntax, as Claude Code reads it). */
export const WORKTREE_INCLUDE = '.worktreeinclude'

/** The patterns of the folder's `.worktreeinclude`, or null when it has none. */
export async function includePatterns(root: string): Promise<string | null> {
  try {
    return await readFile(join(root, WORKTREE_INCLUDE), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

async function exists(abs: string): Promise<boolean> {
  try {
    await lstat(abs)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}

/**
 * Untracked files of the repository folder `source` (ignored ones included) that `.worktreeinclude`
 * matches, relative to `source`. git reads the file as it reads a `.gitignore` (in each folder, with
 * git's own matching) and walks the tree itself; nothing is listed when `source` has none.
 */
export async function includedInRepo(source: string): Promise<string[]> {
  if (!(await exists(join(source, WORKTREE_INCLUDE)))) return []
  const out = await git(source, ['ls-files', '-z', '--others', '--ignored', `--exclude-per-directory=${WORKTREE_INCLUDE}`])
  // A nested repository is listed as its folder (`sub/`): its files are not this repository's.
  return nulRecords(out).filter((path) => !path.endsWith('/'))
}

/** Copies `paths` of `source` that `target` does not have yet (a link as a link). Returns the copied paths. */
export async function copyMissing(source: string, target: string, paths: string[]): Promise<string[]> {
  const copied: string[] = []
  for (const path of paths) {
    if (await exists(join(target, path))) continue
    const stats = await lstat(join(source, path))
    if (!stats.isFile() && !stats.isSymbolicLink()) continue
    await mkdir(dirname(join(target, path)), { recursive: true })
    if (stats.isSymbolicLink()) await symlink(await readlink(join(source, path)), join(target, path))
    else await copyFile(join(source, path), join(target, path))
    copied.push(path)
  }
  return copied
}
