import { stat } from 'node:fs/promises'
import { log } from '../util/log'

export type RootState = 'missing' | 'present'

/** How often an open project's folder is looked at when nothing else prompts a look: one stat, off the hot path. */
export const PRESENCE_INTERVAL_MS = 3_000

export interface RootPresenceOptions {
  root: string
  /** A change of state; `replaced`: the folder back at the path is not the one that left (another inode). */
  onChange(state: RootState, replaced: boolean): void
  intervalMs?: number
}

/**
 * Notices an open project's folder vanishing (deleted, renamed away, unmounted) and coming back.
 * A stat of the root, coalesced: on a slow timer (unref'd, so it never keeps a process alive) and
 * whenever the file watch hints that something happened to the tree (`check`).
 */
export class RootPresence {
  private state: RootState = 'present'
  private identity: string | null = null
  private running: Promise<void> | null = null
  private again = false
  private readonly timer: NodeJS.Timeout
  private disposed = false

  constructor(private readonly options: RootPresenceOptions) {
    this.timer = setInterval(() => this.check(), options.intervalMs ?? PRESENCE_INTERVAL_MS)
    this.timer.unref()
    this.check()
  }

  get current(): RootState {
    return this.state
  }

  /** Looks at the folder now (one look at a time; a request during a look runs one more after it). */
  check(): void {
    if (this.disposed) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.look()
      .catch((error: unknown) => log.warn(`[project] ${this.options.root}: could not look at the folder: ${(error as Error).message}`))
      .finally(() => {
        this.running = null
        if (!this.again) return
        this.again = false
        this.check()
      })
  }

  /** Resolves once the look in progress (and one requested during it) is done. */
  async settled(): Promise<void> {
    while (this.running) await this.running
  }

  dispose(): void {
    this.disposed = true
    clearInterval(this.timer)
  }

  private async look(): Promise<void> {
    const identity = await folderIdentity(this.options.root)
    if (this.disposed) return
    const state: RootState = identity === null ? 'missing' : 'present'
    const replaced = identity !== null && this.identity !== null && identity !== this.identity
    if (identity !== null) this.identity = identity
    if (state === this.state && !replaced) return
    this.state = state
    this.options.onChange(state, replaced)
  }
}

/** `dev:ino` of the folder at `path`, or null when no folder is there. */
async function folderIdentity(path: string): Promise<string | null> {
  try {
    const info = await stat(path)
    return info.isDirectory() ? `${info.dev}:${info.ino}` : null
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
}
