import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { errorMessage, type ExtensionError } from './types'

export interface DirEntry {
  name: string
  path: string
  isDirectory: boolean
}

/** Missing folders are normal (most users have no skills or agents); every other error is reported. */
function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/**
 * The entries of `dir`, sorted by name so results do not depend on the file system's
 * order. Symlinks are followed (skills are often linked in from a shared checkout);
 * a dangling link is reported. A folder that does not exist yields nothing.
 */
export async function listDir(dir: string, errors: ExtensionError[]): Promise<DirEntry[]> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (error) {
    if (!isMissing(error)) errors.push({ file: dir, error: `cannot list the folder: ${errorMessage(error)}` })
    return []
  }
  const entries: DirEntry[] = []
  for (const name of names.sort()) {
    const path = join(dir, name)
    try {
      entries.push({ name, path, isDirectory: (await stat(path)).isDirectory() })
    } catch (error) {
      errors.push({ file: path, error: `cannot read: ${errorMessage(error)}` })
    }
  }
  return entries
}

/** Folders in the given order with duplicates removed (a project opened at the home folder). */
export function uniqueDirs<T extends { dir: string }>(dirs: readonly T[]): T[] {
  const seen = new Set<string>()
  return dirs.filter((d) => {
    const key = resolve(d.dir)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
