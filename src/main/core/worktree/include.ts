import ignore from 'ignore'
import { copyFile, lstat, mkdir, readdir, readFile, readlink, symlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'

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
 * Copies into `target` the files of `source` that `.worktreeinclude` matches and the worktree does
 * not have yet (ignored files such as `.env`: tracked ones came with the checkout or the copy).
 * `.git` is never visited. Returns the copied paths.
 */
export async function copyIncluded(source: string, target: string): Promise<string[]> {
  const rules = await includeRules(source)
  if (!rules) return []
  const copied: string[] = []
  const walk = async (rel: string): Promise<void> => {
    for (const dirent of await readdir(join(source, rel), { withFileTypes: true })) {
      const path = rel === '' ? dirent.name : `${rel}/${dirent.name}`
      if (dirent.name === '.git') continue
      if (dirent.isDirectory()) {
        await walk(path)
        continue
      }
      if (!dirent.isFile() && !dirent.isSymbolicLink()) continue
      if (!rules.ignores(path) || (await exists(join(target, path)))) continue
      await mkdir(dirname(join(target, path)), { recursive: true })
      if (dirent.isSymbolicLink()) await symlink(await readlink(join(source, path)), join(target, path))
      else await copyFile(join(source, path), join(target, path))
      copied.push(path)
    }
  }
  await walk('')
  return copied
}
