import type { HotaruBridge } from '@shared/ipc'
import { background } from '../../../lib/background'

/**
 * The project's file paths for `@` mentions and Quick Open, from core's index
 * (one `rg --files`, gitignore-aware). Fetched on first use and again after the
 * watcher reports files created or deleted.
 */
export class FileIndex {
  private files: string[] = []
  private truncated = false
  private fetching: Promise<string[]> | null = null
  private stale = true
  private readonly off: () => void

  constructor(
    private readonly bridge: HotaruBridge,
    private readonly projectId: string,
  ) {
    this.off = bridge.fs.onChanged(({ projectId: id, payload }) => {
      if (id !== projectId) return
      if (payload.changes.some((c) => c.kind !== 'changed') || payload.invalidated.length > 0) this.stale = true
    })
  }

  /** Whether the project has more files than the index holds. */
  get isTruncated(): boolean {
    return this.truncated
  }

  /** The current list; a refresh, when one is due, runs in the background and calls `onUpdate`. */
  get(onUpdate: (files: string[]) => void): string[] {
    if (this.stale && !this.fetching) {
      this.stale = false
      this.fetching = this.fetch().finally(() => (this.fetching = null))
      background('this.fetching.then', this.fetching.then(onUpdate))
    }
    return this.files
  }

  private async fetch(): Promise<string[]> {
    const result = await this.bridge.search.files({ projectId: this.projectId })
    if (!result.ok) {
      // Shown as an empty list; the next change or request tries again.
      console.warn('[files] project index unavailable:', result.error.data.message)
      this.stale = true
      return this.files
    }
    this.files = result.value.files
    this.truncated = result.value.truncated
    return this.files
  }

  dispose(): void {
    this.off()
  }
}
