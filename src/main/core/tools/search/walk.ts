import { readdirSync, type Dirent } from 'node:fs'
import { join } from 'node:path'
import { IgnoreRules } from '../../project/ignore-rules'

export interface WalkEntry {
  /** `/`-separated, relative to the project root. */
  rel: string
  abs: string
  isDir: boolean
}

/**
 * Walks `startRel` (project-relative) depth-first, honouring .gitignore files like
 * git (nested ones included) and skipping .git and node_modules. Symlinked
 * directories are not followed (as ripgrep does by default). `visit` returns
 * 'stop' to end the walk, 'skip' to leave a directory out.
 */
export function walkProject(
  root: string,
  startRel: string,
  visit: (entry: WalkEntry) => 'stop' | 'skip' | void,
  signal?: AbortSignal,
  /** Told of each directory that exists but cannot be listed (the walk goes on without it). */
  onUnreadable?: (rel: string, error: unknown) => void,
): void {
  const rules = new IgnoreRules(root)
  const stack: string[] = [startRel]
  while (stack.length > 0) {
    signal?.throwIfAborted()
    const dirRel = stack.pop() as string
    const dirAbs = dirRel ? join(root, dirRel) : root
    let entries: Dirent[]
    try {
      entries = readdirSync(dirAbs, { withFileTypes: true })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // Unreadable or vanished directories are skipped, as rg does (and reported, as rg does); anything else is a real failure.
      if (code === 'EACCES' || code === 'EPERM') onUnreadable?.(dirRel || '.', error)
      if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' || code === 'ENOTDIR') continue
      throw error
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0))
    for (const entry of entries) {
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name
      const isDir = entry.isDirectory()
      if (rules.isIgnored(rel, isDir)) continue
      const verdict = visit({ rel, abs: join(dirAbs, entry.name), isDir })
      if (verdict === 'stop') return
      if (isDir && verdict !== 'skip') stack.push(rel)
    }
  }
}
