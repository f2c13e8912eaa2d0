import { create } from 'zustand'

/** The full-window worktree views of a tab: its changes, the merge preview, or one conflict side by side. */
export type WorktreeView =
  | { kind: 'changes'; tabId: string; name: string }
  | { kind: 'merge'; tabId: string; name: string }
  | { kind: 'conflict'; tabId: string; name: string; path: string }
  | { kind: 'create'; tabId: string }

export const useWorktreeView = create<{ view: WorktreeView | null }>(() => ({ view: null }))

export function showWorktreeView(view: WorktreeView | null): void {
  useWorktreeView.setState({ view })
}
