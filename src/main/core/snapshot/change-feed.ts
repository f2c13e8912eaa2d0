import { watch, type FSWatcher } from 'chokidar'
import { lstatSync, type Stats } from 'node:fs'
import { isAbsolute, relative, sep } from 'node:path'
import { errnoCode } from './errors'
import type { IgnoreCache } from './ignore-cache'
import { isInGitDir } from './scanner'

/** What the engine does with the feed's findings. */
export interface ChangeFeedSink {
  /** `path` (project-relative) was added, changed or removed; a directory means its whole subtree. */
  dirty(path: string): void
  /** The feed cannot say what changed: the next snapshot walks the whole tree. */
  rescan(): void
  /** Whether increments from the feed can be trusted (false while starting or after a failure). */
  setLive(live: boolean): void
}

/** Errors after which the OS stops reporting some changes: the feed is given up, snapshots walk fully. */
const FATAL_CODES = new Set(['ENOSPC', 'EMFILE', 'ENFILE', 'EPERM', 'EACCES'])

/**
 * Watches the project with chokidar and reports dirty paths, so a snapshot after a small
 * change visits only those paths. The watcher skips what the snapshot skips (`.gitignore`
 * rules, default excludes, `.git`), so a build writing thousands of ignored files costs
 * nothing. When a `.gitignore` changes, what is watched must change too: the watcher is
 * restarted and a full rescan requested. Events only arrive through the event loop, so
 * changes the caller itself just made should be passed to `markDirty()` (or `markAllDirty()`
 * after a shell command) rather than relying on the feed's timing.
 */
export class ChangeFeed {
  private watcher: FSWatcher | null = null
  private disposed = false
  private restarting: Promise<void> | null = null
  private stopWaiting: (() => void) | null = null
  /** When the watcher last reported anything (or started): `settle()` waits for quiet after it. */
  private lastEventAt = performance.now()

  constructor(
    private readonly root: string,
    private readonly rules: IgnoreCache,
    private readonly excluded: ReadonlySet<string>,
    private readonly sink: ChangeFeedSink,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Resolves once the watcher is ready, i.e. from when increments are trustworthy. */
  async start(): Promise<void> {
    this.sink.setLive(false)
    this.sink.rescan()
    const watcher = watch(this.root, {
      ignoreInitial: true,
      followSymlinks: false,
      // `atomic` would delay unlink events by 100 ms to merge editor save patterns; every event just marks a path.
      atomic: false,
      persistent: true,
      ignored: (path: string, stats?: Stats) => this.isIgnored(path, stats),
    })
    this.watcher = watcher
    watcher.on('all', (_event, path) => this.onEvent(path))
    watcher.on('error', (error: unknown) => this.onWatchError(error))
    // Closing a watcher before it is ready never fires "ready": `stopWaiting` releases this wait then.
    await new Promise<void>((resolve) => {
      this.stopWaiting = resolve
      watcher.once('ready', () => resolve())
    })
    this.stopWaiting = null
    if (this.disposed || this.watcher !== watcher) return
    // Anything that happened before "ready" may have been missed: the first snapshot walks fully.
    this.sink.rescan()
    this.sink.setLive(true)
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
    const watcher = this.watcher
    this.watcher = null
    this.stopWaiting?.()
    if (watcher) await watcher.close()
    if (this.restarting) await this.restarting
  }

  private relativePath(abs: string): string | null {
    const rel = relative(this.root, abs)
    if (rel.startsWith('..') || isAbsolute(rel)) return null
    return sep === '/' ? rel : rel.split(sep).join('/')
  }

  private isIgnored(abs: string, stats?: Stats): boolean {
    const rel = this.relativePath(abs)
    if (rel === null || rel === '') return false
    if (isInGitDir(rel)) return true
    for (const excluded of this.excluded) if (rel === excluded || rel.startsWith(`${excluded}/`)) return true
    if (stats) return this.rules.isIgnored(rel, stats.isDirectory())
    const asFile = this.rules.isIgnored(rel, false)
    const asDir = this.rules.isIgnored(rel, true)
    if (asFile === asDir) return asFile
    // Only dir-only patterns (`build/`) disagree; then what the path is decides.
    try {
      return this.rules.isIgnored(rel, lstatSync(abs).isDirectory())
    } catch (error) {
      const code = errnoCode(error)
      if (code === 'ENOENT' || code === 'ENOTDIR') return asFile
      throw error
    }
  }

  private onEvent(abs: string): void {
    if (this.disposed) return
    this.lastEventAt = performance.now()
    const rel = this.relativePath(abs)
    if (rel === null) return
    if (rel === '') {
      this.sink.rescan()
      return
    }
    this.sink.dirty(rel)
    if (rel === '.gitignore' || rel.endsWith('/.gitignore')) {
      this.rules.invalidate(rel === '.gitignore' ? '' : rel.slice(0, -'/.gitignore'.length))
      this.restart()
    }
  }

  private onWatchError(error: unknown): void {
    const err = error instanceof Error ? error : new Error(String(error))
    this.onError(err)
    this.sink.rescan()
    if (FATAL_CODES.has(errnoCode(err) ?? '')) {
      // The OS will not report everything any more (watch limit, permissions): stop trusting the feed.
      this.sink.setLive(false)
      this.stopAfterFailure().catch((stopError: unknown) => this.onError(stopError instanceof Error ? stopError : new Error(String(stopError))))
    }
  }

  private async stopAfterFailure(): Promise<void> {
    const watcher = this.watcher
    this.watcher = null
    this.stopWaiting?.()
    try {
      await watcher?.close()
    } catch (error) {
      this.onError(error instanceof Error ? error : new Error(String(error)))
    }
  }

  /** Re-creates the watcher (coalesced): ignore rules changed, so the set of watched directories must too. */
  private restart(): void {
    this.sink.rescan()
    if (this.restarting || this.disposed) return
    this.sink.setLive(false)
    this.restarting = (async () => {
      const old = this.watcher
      this.watcher = null
      this.stopWaiting?.()
      try {
        await old?.close()
        if (!this.disposed) await this.start()
      } catch (error) {
        this.onError(error instanceof Error ? error : new Error(String(error)))
      } finally {
        this.restarting = null
      }
    })()
  }
}
