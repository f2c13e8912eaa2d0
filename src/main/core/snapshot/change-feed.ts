import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import { errnoCode } from './errors'
import { TreeWatch } from '../project/tree-watch'
import { feedFromWatch, type FeedListener } from '../project/watch-protocol'
import type { IgnoreCache } from './ignore-cache'
import { isInGitDir } from './scanner'
import { gitignoreFolder } from '../project/ignore-rules'

/** What the engine does with the feed's findings. */
export interface ChangeFeedSink {
  /** `path` (project-relative) was added, changed or removed; a directory means its whole subtree. */
  dirty(path: string): void
  /** The feed cannot say what changed: the next snapshot walks the whole tree. */
  rescan(): void
  /** Whether increments from the feed can be trusted (false while starting or after a failure). */
  setLive(live: boolean): void
}

/**
 * Where a feed's changes come from: given the feed's listener, starts reporting to it and returns
 * how to stop. The project's watch worker, through a port (`listenToFeedPort`); or a watch of the
 * feed's own (`TreeWatch` in this thread, for an engine used on its own).
 */
export type FeedSource = (listener: FeedListener) => { close(): void | Promise<void> }

/** A watch of the feed's own, in this thread, following the snapshot's ignore rules. */
export function ownWatch(root: string, rules: IgnoreCache): FeedSource {
  return (listener) => new TreeWatch(root, rules, feedFromWatch(listener))
}

/**
 * Reports dirty paths of the project, so a snapshot after a small change visits only those paths.
 * The paths come from the project's watch (`FeedSource`), which skips ignored folders; what else
 * the snapshot skips (ignored files, excluded paths, `.git`) is dropped here, so a build writing
 * thousands of ignored files costs nothing. When a `.gitignore` changes, the watch starts over and
 * the next snapshot walks the whole tree. Events only arrive through the event loop, so changes
 * the caller itself just made should be passed to `markDirty()` (or `markAllDirty()` after a shell
 * command) rather than relying on the feed's timing.
 */
export class ChangeFeed {
  private source: { close(): void | Promise<void> } | null = null
  private disposed = false
  private stopWaiting: (() => void) | null = null
  /** When the watch last reported anything (or started): `settle()` waits for quiet after it. */
  private lastEventAt = performance.now()

  constructor(
    private readonly root: string,
    private readonly rules: IgnoreCache,
    private readonly excluded: ReadonlySet<string>,
    private readonly sink: ChangeFeedSink,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Resolves once the watch is ready, i.e. from when increments are trustworthy (or once it failed). */
  async start(source: FeedSource): Promise<void> {
    this.sink.setLive(false)
    this.sink.rescan()
    // Also released by `dispose` while the watch is still starting.
    const ready = new Promise<void>((resolve) => (this.stopWaiting = resolve))
    this.source = source({
      paths: (paths) => this.onPaths(paths),
      ready: () => {
        if (this.disposed) return
        // Anything that happened before "ready" may have been missed: the next snapshot walks fully.
        this.sink.rescan()
        this.sink.setLive(true)
        this.stopWaiting?.()
      },
      restarting: () => {
        this.sink.setLive(false)
        this.sink.rescan()
      },
      failed: (error, fatal) => {
        this.onError(error)
        this.sink.rescan()
        if (!fatal) return
        // The OS will not report everything any more (watch limit, permissions): stop trusting the feed.
        this.sink.setLive(false)
        this.stopWaiting?.()
      },
    })
    await ready
    this.stopWaiting = null
  }

  /**
   * Resolves once no event arrived for `quietMs` (at most `maxMs`): changes a process just made
   * reach the watcher through the event loop, a little after the process ended.
   */
  async settle(quietMs: number, maxMs: number): Promise<void> {
    const deadline = performance.now() + maxMs
    // At least one quiet period from now: events of a just-finished command may still be queued.
    this.lastEventAt = Math.max(this.lastEventAt, performance.now())
    for (;;) {
      const now = performance.now()
      const quietUntil = this.lastEventAt + quietMs
      if (now >= quietUntil || now >= deadline || this.disposed) return
      await new Promise((resolve) => setTimeout(resolve, Math.min(quietUntil, deadline) - now))
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true
    this.sink.setLive(false)
    const source = this.source
    this.source = null
    this.stopWaiting?.()
    await source?.close()
  }

  /** Whether the snapshot skips `rel` (ignored, excluded, in `.git`): its changes are no news. */
  private isIgnored(rel: string): boolean {
    if (isInGitDir(rel)) return true
    for (const excluded of this.excluded) if (rel === excluded || rel.startsWith(`${excluded}/`)) return true
    const asFile = this.rules.isIgnored(rel, false)
    const asDir = this.rules.isIgnored(rel, true)
    if (asFile === asDir) return asFile
    // Only dir-only patterns (`build/`) disagree; then what the path is decides. One that cannot be
    // looked at (removed, unreadable) is news: the snapshot visiting it decides.
    try {
      return this.rules.isIgnored(rel, lstatSync(join(this.root, rel)).isDirectory())
    } catch (error) {
      const code = errnoCode(error)
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.onError(error as Error)
      return false
    }
  }

  private onPaths(paths: readonly string[]): void {
    if (this.disposed) return
    this.lastEventAt = performance.now()
    for (const rel of paths) {
      const gitignoreOf = gitignoreFolder(rel)
      if (gitignoreOf !== null) {
        // The engine's rules must see it too; the watch starts over and says so (`restarting`).
        this.rules.invalidate(gitignoreOf)
        this.sink.rescan()
      }
      if (!this.isIgnored(rel)) this.sink.dirty(rel)
    }
  }
}
