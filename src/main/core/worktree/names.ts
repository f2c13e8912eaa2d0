import { randomInt } from 'node:crypto'
import { homedir } from 'node:os'
import { basename, isAbsolute, join, resolve } from 'node:path'

const ADJECTIVES = ['amber', 'brisk', 'calm', 'deft', 'eager', 'fair', 'keen', 'lucid', 'mellow', 'nimble', 'quiet', 'swift', 'tidy', 'vivid', 'warm']
const NOUNS = ['otter', 'heron', 'maple', 'comet', 'ember', 'fjord', 'lark', 'pine', 'reef', 'sparrow', 'tide', 'willow', 'finch', 'cedar', 'brook']

/** A readable name not in `taken`: `swift-otter`, then `swift-otter-2`… */
export function generateName(taken: ReadonlySet<string>): string {
  const stem = `${ADJECTIVES[randomInt(ADJECTIVES.length)]}-${NOUNS[randomInt(NOUNS.length)]}`
  if (!taken.has(stem)) return stem
  for (let n = 2; ; n++) if (!taken.has(`${stem}-${n}`)) return `${stem}-${n}`
}

/** The branch of a git worktree. */
export function branchName(name: string): string {
  return `hotaru/${name}`
}

/**
 * Where a project's worktrees live: `worktree.dir` (`~` and paths relative to the project allowed),
 * else `<dataDir>/worktrees/<folder>-<id>`, outside the project so its watchers, search and
 * checkpoints never see them.
 */
export function worktreesFolder(options: { dataDir: string; projectRoot: string; projectId: string; configured?: string }): string {
  const { configured } = options
  if (configured) {
    const expanded = configured === '~' ? homedir() : configured.startsWith('~/') ? join(homedir(), configured.slice(2)) : configured
    return isAbsolute(expanded) ? expanded : resolve(options.projectRoot, expanded)
  }
  return join(options.dataDir, 'worktrees', `${basename(options.projectRoot) || 'root'}-${options.projectId.slice(0, 8)}`)
}
