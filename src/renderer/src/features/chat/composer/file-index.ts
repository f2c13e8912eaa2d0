import type { HotaruBridge } from '@shared/ipc'
import { background } from '../../../lib/background'

const MAX_FILES = 20_000
const MAX_DIRS = 4_000
const PARALLEL = 8

/**
 * The project's file paths for `@` mentions, listed folder by folder over the
 * fs contract (gitignored entries left out), built on first use and again
 * after the watcher reports changes. Large trees are capped.
 */
class FileIndex {
  private files: string[] = []
  private building: Promise<string[]> | null = null
  private stale = true
  private readonly off: () => void

  constructor(
    private readonly bridge: HotaruBridge,
    private readonly projectId: string,
  ) {
    this.off = bridge.fs.onChanged(({ projectId: id, payload }) => {
      if (id === projectId && payload.changes.some((c) => c.kind !== 'changed') || payload.invalidated.length > 0) this.stale = true
    })
  }

  /** The current list; a rebuild, when one is due, runs in the background and calls `onUpdate`. */
  get(onUpdate: (files: string[]) => void): string[] {
    if (this.stale && !this.building) {
      this.stale = false
      this.building = this.build().finally(() => (this.building = null))
      background('file index', this.building.then(onUpdate))
    }
    return this.files
  }

  private async build(): Promise<string[]> {
    const files: string[] = []
    let level = ['']
    let dirs = 0
    // Breadth first, a few folders at a time: shallow files (the likely mentions) come first.
    while (level.length > 0 && files.length < MAX_FILES && dirs < MAX_DIRS) {
      const next: string[] = []
      for (let i = 0; i < level.length && files.length < MAX_FILES && dirs < MAX_DIRS; i += PARALLEL) {
        const batch = level.slice(i, i + PARALLEL)
        dirs += batch.length
        const results = await Promise.all(batch.map((path) => this.bridge.fs.list({ projectId: this.projectId, path })))
        for (const result of results) {
          if (!result.ok) continue
          for (const entry of result.value.entries) {
            if (entry.ignored) continue
            // Linked folders are not followed: a link to an ancestor would loop.
            if (entry.kind === 'dir') next.push(entry.path)
            else if (entry.kind === 'file' || entry.targetKind === 'file') files.push(entry.path)
          }
        }
      }
      level = next
    }
    this.files = files
    return files
  }

  dispose(): void {
    this.off()
  }
}

const indexes = new Map<string, FileIndex>()

export function fileIndexFor(bridge: HotaruBridge, projectId: string): FileIndex {
  let index = indexes.get(projectId)
  if (!index) {
    index = new FileIndex(bridge, projectId)
    indexes.set(projectId, index)
  }
  return index
}

export function dropFileIndex(projectId: string): void {
  indexes.get(projectId)?.dispose()
  indexes.delete(projectId)
}
