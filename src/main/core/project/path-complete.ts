import { readdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** `~` and `~/x` become the home directory (as a shell does); other paths are returned unchanged. */
export function expandTilde(path: string, home = homedir()): string {
  if (path === '~') return home
  if (path.startsWith('~/')) return join(home, path.slice(2))
  return path
}

/**
 * Folders that complete a typed path: the entries of its parent folder whose
 * name starts with the last segment (case-insensitive; dot-folders only when
 * the segment starts with a dot), with a trailing `/`, written the way the user
 * wrote the path (`~/…` stays `~/…`). Unreadable folders complete to nothing.
 */
export function completeFolder(typed: string, limit = 20, home = homedir()): string[] {
  if (!typed.startsWith('/') && !typed.startsWith('~')) return []
  const cut = typed.lastIndexOf('/')
  if (cut < 0) return typed === '~' ? ['~/'] : []
  const shownDir = typed.slice(0, cut + 1)
  const partial = typed.slice(cut + 1).toLowerCase()
  const dir = expandTilde(shownDir, home)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM') return []
    throw error
  }
  const folders: string[] = []
  for (const name of names.sort((a, b) => a.localeCompare(b))) {
    if (!name.toLowerCase().startsWith(partial)) continue
    if (name.startsWith('.') && !partial.startsWith('.')) continue
    try {
      if (!statSync(join(dir, name)).isDirectory()) continue
    } catch (error) {
      // A dangling link or an entry that vanished is simply not offered.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw error
    }
    folders.push(`${shownDir}${name}/`)
    if (folders.length >= limit) break
  }
  return folders
}
