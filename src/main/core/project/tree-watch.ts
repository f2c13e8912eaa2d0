import { watch, type FSWatcher } from 'chokidar'
import { lstatSync, type Stats } from 'node:fs'
import { isAbsolute, relative, sep } from 'node:path'
import { gitignoreFolder } from './ignore-rules'

export type TreeChangeKind = 'add' | 'addDir' | 'change' | 'unlink' | 'unlinkDir'

/** The ignore rules a watch follows: folders they ignore are not descended into. */
export interface WatchRules {
  isIgnored(rel: string, isDir: boolean): boolean
  /** After the `.gitignore` of `dir` (`''` = root) changed. */
  invalidate(dir?: string): void
}

export interface TreeWatchListener {
  /** `rel` (project-relative, `/`-separated; a folder stands for its whole subtree) changed. */
  change(kind: TreeChangeKind, rel: string): void
  /** Every folder is watched: from now on nothing is missed (after the start, and after each restart). */
  ready(): void
  /** The ignore rules changed and the watch starts over: changes may be missed until the next `ready`. */
  restarting(): void
  /** `fatal`: the OS stopped reporting some changes (watch limit, permissions) and the watch has ended. */
  failed(error: Error, fatal: boolean): void
}

/** Errors after which the OS stops reporting some changes: the watch is given up. */
const FATAL_CODES = new Set(['ENOSPC', 'EMFILE', 'ENFILE', 'EPERM', 'EACCES'])

const errnoCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code

/**
 * chokidar asks about some paths before it has stats. A vanished path is not ignored (its removal
 * is news), nor is one that cannot be looked at: chokidar reports what it cannot read itself.
 */
function lstatOrNull(abs: string): Stats | null {
  try {
    return lstatSync(abs)
  } catch (error) {
    if (errnoCode(error) === undefined) throw error
    return null
  }
}

/**
 * The one chokidar watch of a project folder. Folders the ignore rules skip (`.gitignore`d ones,
 * `node_modules`, `.git`) are not descended into: watching them costs inotify handles and CPU for
 * trees nobody edits by hand; ignored files next to tracked ones are reported. Symbolic links are
 * not followed. When a `.gitignore` changes, what is watched must change too, so the watch starts
 * over (coalesced) and says so. Reports raw changes as they come; batching is the listeners'.
 */
export class TreeWatch {
  private watcher: FSWatcher | null = null
  private closed = false
  private restarting: Promise<void> | null = null

  constructor(
    private readonly root: string,
    private readonly rules: WatchRules,
    private readonly listener: TreeWatchListener,
  ) {
    this.start()
  }

  async close(): Promise<void> {
    this.closed = true
    const watcher = this.watcher
    this.watcher = null
    await watcher?.close()
    await this.restarting
  }

  private start(): void {
    const watcher = watch(this.root, {
      ignoreInitial: true,
      followSymlinks: false,
      // `atomic` would hold every removal back 100 ms to merge editor save patterns; listeners that
      // care merge a removal and a re-creation themselves (the file tree's batches do).
      atomic: false,
      ignored: (abs: string, stats?: Stats) => {
        const rel = this.relativePath(abs)
        if (rel === null || rel === '') return false
        const info = stats ?? lstatOrNull(abs)
        return info !== null && info.isDirectory() && this.rules.isIgnored(rel, true)
      },
    })
    this.watcher = watcher
    watcher.on('all', (event, abs) => this.onEvent(watcher, event as TreeChangeKind, abs))
    watcher.on('error', (error: unknown) => this.onError(watcher, error))
    watcher.once('ready', () => {
      if (this.watcher === watcher && !this.closed) this.listener.ready()
    })
  }

  private relativePath(abs: string): string | null {
    const rel = relative(this.root, abs)
    if (rel.startsWith('..') || isAbsolute(rel)) return null
    return sep === '/' ? rel : rel.split(sep).join('/')
  }

  private onEvent(watcher: FSWatcher, kind: TreeChangeKind, abs: string): void {
    if (this.watcher !== watcher || this.closed) return
    const rel = this.relativePath(abs)
    if (rel === null || rel === '') return
    this.listener.change(kind, rel)
    const gitignoreOf = gitignoreFolder(rel)
    if (gitignoreOf !== null) {
      this.rules.invalidate(gitignoreOf)
      this.restart()
    }
  }

  private onError(watcher: FSWatcher, error: unknown): void {
    if (this.watcher !== watcher || this.closed) return
    const err = error instanceof Error ? error : new Error(String(error))
    const fatal = FATAL_CODES.has(errnoCode(err) ?? '')
    this.listener.failed(err, fatal)
    if (!fatal) return
    this.watcher = null
    watcher.close().catch((closeError: unknown) => this.listener.failed(closeError instanceof Error ? closeError : new Error(String(closeError)), true))
  }

  /** Starts the watch anew (coalesced): the ignore rules changed, so the set of watched folders must too. */
  private restart(): void {
    if (this.restarting || this.closed) return
    this.listener.restarting()
    this.restarting = (async () => {
      const old = this.watcher
      this.watcher = null
      try {
        await old?.close()
        if (!this.closed) this.start()
      } catch (error) {
        this.listener.failed(error instanceof Error ? error : new Error(String(error)), true)
      } finally {
        this.restarting = null
      }
    })()
  }
}
