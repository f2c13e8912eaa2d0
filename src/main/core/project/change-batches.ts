import { lstatSync, type Stats } from 'node:fs'
import type { FsChange, FsChanged } from '@shared/schema/fs-events'
import { describeEntry } from './files'
import { gitignoreFolder, type IgnoreRules } from './ignore-rules'
import type { TreeChangeKind } from './tree-watch'

/**
 * Changes are collected until none came for this long and sent as one event: a `git checkout` is one
 * message, not thousands, also when its changes trickle in (a busy machine, a slow disk).
 */
const BATCH_MS = 50
/** …but a batch waits at most this many quiet periods from its first change: a steady trickle still shows. */
const MAX_WAIT_PERIODS = 4
/** A burst bigger than this is flushed at once so a single event stays a reasonable size. */
const MAX_BATCH = 2000

/**
 * Turns a watch's raw changes into the file tree's batched `fs:changed` events: per path the
 * settled kind of the burst (a removal and re-creation within a batch, as editors save, is a
 * change) and, for what exists, its entry as a listing shows it (stat at flush time).
 */
export class ChangeBatches {
  private readonly pending = new Map<string, FsChange>()
  private readonly invalidated = new Set<string>()
  private timer: NodeJS.Timeout | null = null
  /** When the pending batch got its first change. */
  private firstAt = 0
  private closed = false

  constructor(
    private readonly root: string,
    private readonly rules: IgnoreRules,
    private readonly send: (batch: FsChanged) => void,
    private readonly batchMs = BATCH_MS,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
  ) {}

  record(event: TreeChangeKind, rel: string): void {
    if (this.closed) return
    const gitignoreOf = gitignoreFolder(rel)
    if (gitignoreOf !== null) this.invalidated.add(gitignoreOf)
    const kind: FsChange['kind'] = event === 'add' || event === 'addDir' ? 'created' : event === 'change' ? 'changed' : 'deleted'
    const previous = this.pending.get(rel)
    // delete + create within one batch is an in-place replacement: report it as a change.
    const merged = previous?.kind === 'deleted' && kind === 'created' ? 'changed' : kind
    this.pending.set(rel, { kind: previous?.kind === 'created' && kind === 'changed' ? 'created' : merged, path: rel })
    if (this.pending.size >= MAX_BATCH) this.flush()
    else this.schedule()
  }

  /** Listings under `dir` (`''`: all of them) may be stale: clients list those folders again. */
  invalidate(dir: string): void {
    if (this.closed) return
    this.invalidated.add(dir)
    this.flush()
  }

  close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private schedule(): void {
    const now = performance.now()
    if (this.timer) clearTimeout(this.timer)
    else this.firstAt = now
    const due = Math.min(now + this.batchMs, this.firstAt + this.batchMs * MAX_WAIT_PERIODS)
    this.timer = setTimeout(() => this.flush(), Math.max(0, due - now))
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
      const abs = `${this.root}/${change.path}`
      let stats: Stats
      try {
        stats = lstatSync(abs)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.warn(`cannot stat ${change.path}: ${(error as Error).message}`)
        changes.push({ kind: 'deleted', path: change.path })
        continue
      }
      changes.push({ ...change, entry: describeEntry(this.root, change.path, abs, stats, this.rules) })
    }
    const invalidated = [...this.invalidated]
    this.pending.clear()
    this.invalidated.clear()
    this.send({ changes, invalidated })
  }
}
