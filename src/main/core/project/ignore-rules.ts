import ignore, { type Ignore } from 'ignore'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ATOMIC_TEMP_PATTERN } from '../util/atomic-write'

/** Excluded everywhere, whatever the project's .gitignore says (our own write's temp files included). */
export const DEFAULT_EXCLUDES: readonly string[] = ['.git/', 'node_modules/', '.DS_Store', 'Thumbs.db', ATOMIC_TEMP_PATTERN]

/** The folder (`''`: the root) whose `.gitignore` `path` is; null when `path` is no `.gitignore`. */
export function gitignoreFolder(path: string): string | null {
  if (path === '.gitignore') return ''
  return path.endsWith('/.gitignore') ? path.slice(0, -'/.gitignore'.length) : null
}

/**
 * `.gitignore` semantics for a project tree, including nested `.gitignore` files:
 * the rules of each directory apply to paths below it, deeper files override
 * shallower ones, and a path inside an ignored directory is ignored. Rules are
 * loaded lazily per directory and cached until `invalidate()`.
 */
export class IgnoreRules {
  private readonly perDir = new Map<string, Ignore | null>()
  private readonly base: Ignore

  constructor(
    private readonly root: string,
    extra: readonly string[] = [],
  ) {
    this.base = ignore().add([...DEFAULT_EXCLUDES, ...extra])
  }

  /** `rel` is `/`-separated and relative to the root; `isDir` adds the trailing slash git matches on. */
  isIgnored(rel: string, isDir: boolean): boolean {
    if (rel === '') return false
    const segments = rel.split('/')
    // A path below an ignored directory is ignored: git never descends into it.
    for (let i = 1; i < segments.length; i++) {
      if (this.matchesOwnRules(segments.slice(0, i), true)) return true
    }
    return this.matchesOwnRules(segments, isDir)
  }

  /** Forget cached rules of one directory (`''` = root), e.g. after its .gitignore changed. */
  invalidate(dirRel?: string): void {
    if (dirRel === undefined) this.perDir.clear()
    else this.perDir.delete(dirRel)
  }

  private matchesOwnRules(segments: string[], isDir: boolean): boolean {
    const suffix = isDir ? '/' : ''
    let ignored = this.base.ignores(segments.join('/') + suffix)
    for (let depth = 0; depth < segments.length; depth++) {
      const rules = this.rulesOf(segments.slice(0, depth).join('/'))
      if (!rules) continue
      const result = rules.test(segments.slice(depth).join('/') + suffix)
      if (result.ignored) ignored = true
      else if (result.unignored) ignored = false
    }
    return ignored
  }

  private rulesOf(dirRel: string): Ignore | null {
    const cached = this.perDir.get(dirRel)
    if (cached !== undefined) return cached
    let rules: Ignore | null = null
    try {
      rules = ignore().add(readFileSync(join(this.root, dirRel, '.gitignore'), 'utf8'))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR') {
        console.warn(`[ignore] cannot read ${join(dirRel, '.gitignore')}: ${(error as Error).message}`)
      }
    }
    this.perDir.set(dirRel, rules)
    return rules
  }
}
