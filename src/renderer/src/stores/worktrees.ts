import type { HotaruBridge, MethodOutput } from '@shared/ipc'
import type { MergeFile, MergePreview, MergeResolution, MergeResult, Worktree, WorktreeBase, WorktreeDiff } from '@shared/schema/worktree'
import { unwrap } from '../ipc'
import { background } from '../lib/background'
import { chatScope, useChatScope } from './chat-scope'
import { onResync } from './resync'

export type FileVersions = MethodOutput<'worktree', 'file'>

/**
 * The worktrees of one project tab: listed from core, kept current from `worktree:changed`, each one's
 * project opened so its sessions run and stream here. A worktree's chat is the ordinary chat of its
 * project (`chatFor(worktree.projectId)`); which one the tab shows is `chatScope`.
 */
export class WorktreesController {
  private readonly off: (() => void)[]
  private readonly opening = new Set<string>()

  constructor(
    private readonly bridge: HotaruBridge,
    readonly projectId: string,
    /** Called for a worktree project that is ready here (its chat can be created) and one that went away. */
    private readonly hooks: { opened(worktree: Worktree): void; removed(worktree: Worktree): void },
  ) {
    this.off = [
      bridge.worktree.onChanged(({ projectId: id, payload }) => {
        if (id === projectId || payload.projectId === projectId) this.apply(payload.name, payload.worktree)
      }),
      onResync(() => background('worktrees.refresh', this.refresh())),
    ]
    background('worktrees.refresh', this.refresh())
  }

  list(): Worktree[] {
    return useChatScope.getState().worktrees[this.projectId] ?? []
  }

  get(name: string): Worktree | undefined {
    return this.list().find((w) => w.name === name)
  }

  async refresh(): Promise<void> {
    const result = await this.bridge.worktree.list({ projectId: this.projectId })
    if (!result.ok) {
      console.warn('[worktrees] not listed:', result.error.data.message)
      return
    }
    const gone = this.list().filter((w) => !result.value.some((n) => n.name === w.name))
    chatScope.setWorktrees(this.projectId, result.value)
    for (const w of gone) this.hooks.removed(w)
    for (const w of result.value) this.ensureOpen(w)
  }

  private apply(name: string, worktree: Worktree | null): void {
    const before = this.get(name)
    const list = this.list().filter((w) => w.name !== name)
    chatScope.setWorktrees(this.projectId, worktree ? [...list, worktree].sort((a, b) => a.createdAt - b.createdAt) : list)
    if (worktree) this.ensureOpen(worktree)
    else if (before) this.hooks.removed(before)
  }

  /** A worktree listed after a restart is opened in core, so its sessions can run and this page gets its events. */
  private ensureOpen(worktree: Worktree): void {
    if (worktree.open) {
      this.hooks.opened(worktree)
      return
    }
    if (this.opening.has(worktree.name)) return
    this.opening.add(worktree.name)
    background('worktree.open', this.bridge.worktree.open({ projectId: this.projectId, name: worktree.name }).then((result) => {
      this.opening.delete(worktree.name)
      if (result.ok) this.apply(worktree.name, result.value)
      else console.warn(`[worktrees] ${worktree.name} not opened:`, result.error.data.message)
    }))
  }

  /** Creates a worktree (name generated when empty) and shows its chat in the tab. */
  async create(name?: string, base?: WorktreeBase): Promise<Worktree> {
    const worktree = await unwrap(this.bridge.worktree.create({ projectId: this.projectId, ...(name ? { name } : {}), ...(base ? { base } : {}) }))
    this.apply(worktree.name, worktree)
    chatScope.show(this.projectId, worktree.name)
    return worktree
  }

  diff(name: string): Promise<WorktreeDiff> {
    return unwrap(this.bridge.worktree.diff({ projectId: this.projectId, name }))
  }

  /** `from`: the worktree renamed the file from there (its base version). */
  file(name: string, path: string, side: 'worktree' | 'main' | 'merged', from?: string): Promise<FileVersions> {
    return unwrap(this.bridge.worktree.file({ projectId: this.projectId, name, path, side, ...(from !== undefined ? { from } : {}) }))
  }

  previewMerge(name: string): Promise<MergePreview> {
    return unwrap(this.bridge.worktree.previewMerge({ projectId: this.projectId, name }))
  }

  /** A conflicting text file in regions, for the three-way merge editor. */
  mergeFile(name: string, path: string): Promise<MergeFile> {
    return unwrap(this.bridge.worktree.mergeFile({ projectId: this.projectId, name, path }))
  }

  /** Merges back after a checkpoint of the main tree; conflicts are refused unless resolved, skipped or overwritten. */
  async merge(name: string, options: { skipConflicts?: boolean; overwriteConflicts?: boolean; resolutions?: MergeResolution[] }): Promise<MergeResult> {
    const result = await unwrap(this.bridge.worktree.merge({ projectId: this.projectId, name, ...options }))
    background('worktrees.refresh', this.refresh())
    return result
  }

  /** Removes the worktree; throws `WorktreeUnmerged` (an IpcError) while it has unmerged changes unless forced. */
  async remove(name: string, options: { force?: boolean; keepBranch?: boolean } = {}): Promise<{ removed: boolean; branchKept: boolean }> {
    const before = this.get(name)
    const result = await unwrap(this.bridge.worktree.remove({ projectId: this.projectId, name, ...options }))
    if (result.removed && before) this.apply(name, null)
    return result
  }

  dispose(): void {
    for (const off of this.off) off()
    for (const w of this.list()) this.hooks.removed(w)
    chatScope.drop(this.projectId)
  }
}
