import { create } from 'zustand'
import type { MergeResolution } from '@shared/schema/worktree'

/** The full-window worktree views of a tab: its changes, the merge preview, or one conflict side by side. */
export type WorktreeView =
  | { kind: 'changes'; tabId: string; name: string }
  | { kind: 'merge'; tabId: string; name: string }
  /** `mainPath`: the main tree's side is at another path (the old path of a file the worktree renamed). */
  | { kind: 'conflict'; tabId: string; name: string; path: string; mainPath?: string }
  /** A conflicting text file in the three-way merge editor (incoming / current / result). */
  | { kind: 'merge-editor'; tabId: string; name: string; path: string }
  | { kind: 'create'; tabId: string }

export const useWorktreeView = create<{ view: WorktreeView | null }>(() => ({ view: null }))

export function showWorktreeView(view: WorktreeView | null): void {
  useWorktreeView.setState({ view })
}

/**
 * How the user settled each conflict of a worktree's merge, by `tabId\0name` then path: kept while they move
 * between the merge preview and the merge editor, sent with the merge, forgotten after it.
 */
export const useMergeResolutions = create<{ byWorktree: Record<string, Record<string, MergeResolution>> }>(() => ({ byWorktree: {} }))

export function resolutionsKey(tabId: string, name: string): string {
  return `${tabId}\0${name}`
}

export function setResolution(tabId: string, name: string, path: string, resolution: MergeResolution | null): void {
  useMergeResolutions.setState((s) => {
    const key = resolutionsKey(tabId, name)
    const current = { ...(s.byWorktree[key] ?? {}) }
    if (resolution) current[path] = resolution
    else delete current[path]
    return { byWorktree: { ...s.byWorktree, [key]: current } }
  })
}

export function clearResolutions(tabId: string, name: string): void {
  useMergeResolutions.setState((s) => {
    const next = { ...s.byWorktree }
    delete next[resolutionsKey(tabId, name)]
    return { byWorktree: next }
  })
}
