import ignore from 'ignore'
import { copyFile, lstat, mkdir, readdir, readFile, readlink, symlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { git, nulRecords } from './git'

/** The file listing ignored files a new worktree gets copied in (gitignore syntax, as Claude Code reads it). */
export const WORKTREE_INCLUDE = '.worktreeinclude'

async function includeRules(root: string) {
  try {
    return ignore().add(await readFile(join(root, WORKTREE_INCLUDE), 'utf8'))
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

/**
 * Copies into `target` the files of the folder `source` (not a git repository) that `.worktreeinclude`
 * matches and the worktree does not have yet (ignored files such as `.env`: the others came with the
 * copy). `.git` is never visited. Returns the copied paths.
 */
export async function copyIncluded(source: string, target: string): Promise<string[]> {
  const rules = await includeRules(source)
  if (!rules) return []
  const matched: string[] = []
  const walk = async (rel: string): Promise<void> => {
    for (const dirent of await readdir(join(source, rel), { withFileTypes: true })) {
      const path = rel === '' ? dirent.name : `${rel}/${dirent.name}`
      if (dirent.name === '.git') continue
      if (dirent.isDirectory()) await walk(path)
      else if ((dirent.isFile() || dirent.isSymbolicLink()) && rules.ignores(path)) matched.push(path)
    }
  }
  await walk('')
  return copyMissing(source, target, matched)
}
