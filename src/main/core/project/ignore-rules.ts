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
    // A path below an ignored directory is ignored: git never descends into it.
    for (let slash = rel.indexOf('/'); slash >= 0; slash = rel.indexOf('/', slash + 1)) {
      if (this.matchesOwn(rel.slice(0, slash), true)) return true
    }
    return this.matchesOwn(rel, isDir)
  }

  /**
   * Whether the rules that apply to `rel` itself ignore it, its parent folders taken as not
   * ignored: for a walk that only descends into folders it kept, which has asked about each of
   * them already (`isIgnored` asks about every ancestor again).
   */
  matchesOwn(rel: string, isDir: boolean): boolean {
    const suffix = isDir ? '/' : ''
    let ignored = this.base.ignores(rel + suffix)
    // The root's rules, then those of each folder down to the parent, each on the path below it.
    for (let start = 0; ; ) {
      const rules = this.rulesOf(start === 0 ? '' : rel.slice(0, start - 1))
      if (rules) {
        const result = rules.test(rel.slice(start) + suffix)
        if (result.ignored) ignored = true
        else if (result.unignored) ignored = false
      }
      const slash = rel.indexOf('/', start)
      if (slash < 0) return ignored
      start = slash + 1
    }
  }

  /** Forget cached rules of one directory (`''` = root), e.g. after its .gitignore changed. */
  invalidate(dirRel?: string): void {
    if (dirRel === undefined) this.perDir.clear()
    else this.perDir.delete(dirRel)
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
