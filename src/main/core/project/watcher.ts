import { watch, type FSWatcher } from 'chokidar'
import { lstatSync, type Stats } from 'node:fs'
import { relative, sep } from 'node:path'
import type { FsChange, FsChanged } from '@shared/schema/fs-events'
import { describeEntry } from './files'
import type { IgnoreRules } from './ignore-rules'

/** Changes are collected this long and sent as one event: a `git checkout` is one message, not thousands. */
const BATCH_MS = 50
/** A burst bigger than this is flushed at once so a single event stays a reasonable size. */
const MAX_BATCH = 2000

/** chokidar asks about some paths before it has stats; a vanished path is not ignored (its unlink is news). */
function lstatOrNull(abs: string): Stats | null {
  try {
    return lstatSync(abs)
  } catch {
    return null
  }
}

type RawKind = 'add' | 'addDir' | 'change' | 'unlink' | 'unlinkDir'

export interface ProjectWatcherOptions {
  root: string
  rules: IgnoreRules
  onChanges(batch: FsChanged): void
  batchMs?: number
}

/**
 * Watches one project folder and reports batched, project-relative changes.
 * Gitignored folders (and node_modules, .git) are not descended into: watching
 * them costs inotify handles and CPU for trees nobody edits by hand.
 */
export class ProjectWatcher {
  private readonly watcher: FSWatcher
  private readonly pending = new Map<string, FsChange>()
  private readonly invalidated = new Set<string>()
  private timer: NodeJS.Timeout | null = null
  private readonly ready: Promise<void>
  private closed = false

  constructor(private readonly options: ProjectWatcherOptions) {
    const { root, rules } = options
    this.watcher = watch(root, {
      ignoreInitial: true,
      followSymlinks: false,
      // Editors that save via rename (vim, some IDEs) would otherwise show up as delete + create.
      atomic: true,
      ignored: (abs: string, stats?: Stats) => {
        const rel = this.rel(abs)
        if (rel === '' || rel.startsWith('..')) return false
        // Only folders are skipped: an ignored file next to tracked ones still shows (dimmed) in the tree.
        const info = stats ?? lstatOrNull(abs)
        return info !== null && info.isDirectory() && rules.isIgnored(rel, true)
      },
    })
    this.ready = new Promise((resolve) =>
      this.watcher.once('ready', () => {
        this.reportStart()
        resolve()
      }),
    )
    this.watcher.on('all', (event, abs) => this.record(event as RawKind, abs))
    this.watcher.on('error', (error) => console.warn(`[watcher] ${root}:`, error))
  }

  /** Resolves once the initial crawl is done and changes are being reported. */
  whenReady(): Promise<void> {
    return this.ready
  }

  /**
   * chokidar reports nothing about what its initial crawl finds (`ignoreInitial`), and a folder is
   * watched only once the crawl reached it. A file created after a listing was taken but before its
   * folder was watched would never be reported, so once every folder is watched the first batch
   * says that listings taken until now are stale (clients list their loaded folders again).
   */
  private reportStart(): void {
    if (this.closed) return
    this.invalidated.add('')
    this.flush()
  }

  private rel(abs: string): string {
    const rel = relative(this.options.root, abs)
    return sep === '/' ? rel : rel.split(sep).join('/')
  }

  private record(event: RawKind, abs: string): void {
    if (this.closed) return
    const rel = this.rel(abs)
    if (rel === '' || rel.startsWith('..')) return
    if (rel.endsWith('.gitignore') && (rel === '.gitignore' || rel.endsWith('/.gitignore'))) {
      const dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : ''
      this.options.rules.invalidate(dir)
      this.invalidated.add(dir)
    }
    const kind: FsChange['kind'] = event === 'add' || event === 'addDir' ? 'created' : event === 'change' ? 'changed' : 'deleted'
    const previous = this.pending.get(rel)
    // delete + create within one batch is an in-place replacement: report it as a change.
    const merged = previous?.kind === 'deleted' && kind === 'created' ? 'changed' : kind
    this.pending.set(rel, { kind: previous?.kind === 'created' && kind === 'changed' ? 'created' : merged, path: rel })
    if (this.pending.size >= MAX_BATCH) this.flush()
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), this.options.batchMs ?? BATCH_MS)
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.closed || (this.pending.size === 0 && this.invalidated.size === 0)) return
    const changes: FsChange[] = []
    for (const change of this.pending.values()) {
      if (change.kind === 'deleted') {
        changes.push(change)
        continue
      }
      // Stat at flush time: the entry reflects the settled state of the burst.
      const abs = `${this.options.root}/${change.path}`
      let stats: Stats
      try {
        stats = lstatSync(abs)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') console.warn(`[watcher] cannot stat ${change.path}:`, error)
        changes.push({ kind: 'deleted', path: change.path })
        continue
      }
      changes.push({ ...change, entry: describeEntry(this.options.root, change.path, abs, stats, this.options.rules) })
    }
    const invalidated = [...this.invalidated]
    this.pending.clear()
    this.invalidated.clear()
    this.options.onChanges({ changes, invalidated })
  }

  async dispose(): Promise<void> {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    await this.watcher.close()
  }
}
