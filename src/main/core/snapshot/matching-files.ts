import ignore from 'ignore'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Files and links under `root` (project paths) that gitignore-syntax `patterns` match, leaving out
 * those `skip` names: one synchronous walk (`readdirSync` per folder, no promise per entry), `.git`
 * never visited. A folder that cannot be read is an error, not a silent gap.
 */
export function filesMatching(root: string, patterns: string, skip: (path: string) => boolean): string[] {
  const rules = ignore().add(patterns)
  const matched: string[] = []
  const walk = (rel: string): void => {
    for (const dirent of readdirSync(rel === '' ? root : join(root, rel), { withFileTypes: true })) {
      if (dirent.name === '.git') continue
      const path = rel === '' ? dirent.name : `${rel}/${dirent.name}`
      if (dirent.isDirectory()) walk(path)
      else if ((dirent.isFile() || dirent.isSymbolicLink()) && !skip(path) && rules.ignores(path)) matched.push(path)
    }
  }
  walk('')
  return matched
}
