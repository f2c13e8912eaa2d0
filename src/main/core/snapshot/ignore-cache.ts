import type { IgnoreRules } from '../project/ignore-rules'

/**
 * Memoizes `IgnoreRules.isIgnored` per path. A full rescan asks about every path again,
 * and each question would re-test every ancestor (tens of microseconds on deep paths): the
 * answers only change when a `.gitignore` does, so every invalidation goes through here
 * and clears the memo along with the rules' own cache.
 */
export class IgnoreCache {
  private readonly files = new Map<string, boolean>()
  private readonly dirs = new Map<string, boolean>()
  private invalidations = 0

  constructor(readonly rules: IgnoreRules) {}

  isIgnored(path: string, isDir: boolean): boolean {
    const memo = isDir ? this.dirs : this.files
    let ignored = memo.get(path)
    if (ignored === undefined) {
      // The parent's answer is memoized too (a walk asked about it before descending): only the
      // path's own rules are tested, not every ancestor's again.
      const slash = path.lastIndexOf('/')
      ignored = (slash > 0 && this.isIgnored(path.slice(0, slash), true)) || this.rules.matchesOwn(path, isDir)
      memo.set(path, ignored)
    }
    return ignored
  }

  /** Changes whenever rules may have changed: results computed under another generation are stale. */
  get generation(): number {
    return this.invalidations
  }

  /** After a `.gitignore` of `dir` (`''` = root; omitted = any) appeared, changed or vanished. */
  invalidate(dir?: string): void {
    this.invalidations++
    this.rules.invalidate(dir)
    // The memo is keyed by path, not by the rules that decided it: start over (this is rare).
    this.files.clear()
    this.dirs.clear()
  }
}
