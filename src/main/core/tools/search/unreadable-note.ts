import { lstatSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { displayPath } from './path-display'
import type { SearchProblem } from './ripgrep'

/**
 * The lines grep and glob add when some files or folders could not be read, so the model does
 * not take "Found 1 match" for "nothing else matches". Folders end in `/`; `base` is what the
 * problem paths are relative to, `prefix` what is printed before them (the search directory).
 */
export function unreadableNote(problems: SearchProblem[], count: number, base: string, prefix: string, what: string): string[] {
  if (count === 0) return []
  const out = ['', `${count} ${count === 1 ? 'path' : 'paths'} could not be read, so ${what} in ${count === 1 ? 'it' : 'them'} are not included:`]
  const sorted = [...problems].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  for (const problem of sorted) {
    const folder = isFolder(isAbsolute(problem.path) ? problem.path : join(base, problem.path))
    const shown = displayPath(problem.path === '.' ? prefix.replace(/\/$/, '') || '.' : prefix + problem.path).text
    out.push(`  ${shown}${folder ? '/' : ''} (${problem.reason})`)
  }
  if (count > problems.length) out.push(`  … and ${count - problems.length} more`)
  return out
}

function isFolder(abs: string): boolean {
  try {
    return lstatSync(abs).isDirectory()
  } catch (error) {
    // Gone since the search read it: it is still named, without the folder mark.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}
