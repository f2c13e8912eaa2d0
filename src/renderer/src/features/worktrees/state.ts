import { create } from 'zustand'

/** The full-window worktree views of a tab: its changes, the merge preview, or one conflict side by side. */
export type WorktreeView =
  | { kind: 'changes'; tabId: string; name: string }
  | { kind: 'merge'; tabId: string; name: string }
  /** `mainPath`: the main tree's side is at another path (the old path of a file the worktree renamed). */
  | { kind: 'conflict'; tabId: string; name: string; path: string; mainPath?: string }
  | { kind: 'create'; tabId: string }

export const useWorktreeView = create<{ view: WorktreeView | null }>(() => ({ view: null }))

export function showWorktreeView(view: WorktreeView | null): void {
  useWorktreeView.setState({ view })
}
