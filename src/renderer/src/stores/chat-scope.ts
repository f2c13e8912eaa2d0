import { create } from 'zustand'
import type { Worktree } from '@shared/schema/worktree'
import type { ProjectStatus } from './workspace'

/**
 * Which chat a project tab shows: the main folder's, or one of its worktrees' (each worktree is a project
 * of its own, with its own sessions). Kept apart from the worktree list so the activity and notification
 * code can ask "which tab does this project belong to" without loading anything.
 */
export interface ChatScopeState {
  /** The worktrees of each tab (main project id), as last listed. */
  worktrees: Record<string, Worktree[]>
  /** The worktree (by name) whose sessions a tab shows; absent: the main folder. */
  shown: Record<string, string | undefined>
}

export const useChatScope = create<ChatScopeState>(() => ({ worktrees: {}, shown: {} }))

/** The tab (main project id) a project belongs to: itself, or the project a worktree was made from. */
export function tabOf(projectId: string, s: ChatScopeState = useChatScope.getState()): string {
  for (const [main, list] of Object.entries(s.worktrees)) if (list.some((w) => w.projectId === projectId)) return main
  return projectId
}

export function worktreeOfProject(projectId: string, s: ChatScopeState = useChatScope.getState()): Worktree | undefined {
  for (const list of Object.values(s.worktrees)) {
    const found = list.find((w) => w.projectId === projectId)
    if (found) return found
  }
  return undefined
}

/** The project whose chat the tab `mainId` shows now. */
export function shownChatProject(mainId: string, s: ChatScopeState = useChatScope.getState()): string {
  const name = s.shown[mainId]
  return (name ? s.worktrees[mainId]?.find((w) => w.name === name)?.projectId : undefined) ?? mainId
}

/** Every project of a tab whose sessions it lists: the main folder first, then its worktrees. */
export function projectsOfTab(mainId: string, s: ChatScopeState = useChatScope.getState()): string[] {
  return [mainId, ...(s.worktrees[mainId] ?? []).map((w) => w.projectId)]
}

const RANK: Record<ProjectStatus, number> = { idle: 0, error: 1, running: 2, waiting: 3 }

/** A tab's dot and running count over its main folder and its worktrees: a question beats work beats a failure. */
export function tabStatus(
  mainId: string,
  status: Record<string, ProjectStatus>,
  running: Record<string, number>,
  s: ChatScopeState = useChatScope.getState(),
): { state: ProjectStatus; count: number } {
  let state: ProjectStatus = 'idle'
  let count = 0
  for (const id of projectsOfTab(mainId, s)) {
    const one = status[id] ?? 'idle'
    if (RANK[one] > RANK[state]) state = one
    count += running[id] ?? 0
  }
  return { state, count }
}

const SHOWN_KEY = (mainId: string): string => `hotaru.chat.worktree.${mainId}`
/** Tabs whose saved choice was already applied (only the first list after a load restores it). */
const restored = new Set<string>()

export const chatScope = {
  /** Shows the chat of a tab's worktree (`name`), or of the main folder (undefined); kept for the next load. */
  show(mainId: string, name: string | undefined): void {
    restored.add(mainId)
    if (name) localStorage.setItem(SHOWN_KEY(mainId), name)
    else localStorage.removeItem(SHOWN_KEY(mainId))
    useChatScope.setState((s) => (s.shown[mainId] === name ? s : { shown: { ...s.shown, [mainId]: name } }))
  },
  setWorktrees(mainId: string, list: Worktree[]): void {
    let shown = useChatScope.getState().shown[mainId]
    if (!restored.has(mainId)) {
      restored.add(mainId)
      shown ??= localStorage.getItem(SHOWN_KEY(mainId)) ?? undefined
    }
    if (shown !== undefined && !list.some((w) => w.name === shown)) {
      // Its worktree is gone: the tab is back on its main folder, now and after the next load.
      shown = undefined
      localStorage.removeItem(SHOWN_KEY(mainId))
    }
    useChatScope.setState((s) => ({ worktrees: { ...s.worktrees, [mainId]: list }, shown: { ...s.shown, [mainId]: shown } }))
  },
  drop(mainId: string): void {
    restored.delete(mainId)
    useChatScope.setState((s) => {
      const { [mainId]: _list, ...worktrees } = s.worktrees
      const { [mainId]: _shown, ...shown } = s.shown
      return { worktrees, shown }
    })
  },
}
