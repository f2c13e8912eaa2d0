import { createContext, useContext } from 'react'
import { useStore } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { ChatController } from './chat-controller'
import type { WorktreesController } from './worktrees'
import { existingProjectClient, projectClient } from './project-client'
import { useProject } from './project'
import type { CheckpointState } from './checkpoints'
import type { ChatState } from './project-chat'
import { useWorkspace, workspace } from './workspace'
import { chatScope, shownChatProject, tabOf, worktreeOfProject } from './chat-scope'
import { existingProjectStore } from './project'

/** The chat of a project, created on first use; it ends with the tab's ProjectClient. */
export function chatFor(bridge: HotaruBridge, projectId: string): ChatController {
  return projectClient(bridge, projectId).chat
}

export function existingChat(projectId: string): ChatController | undefined {
  const client = existingProjectClient(projectId)
  return client?.hasChat ? client.chat : undefined
}

/** The chat a tab's agent panel shows when it is not the tab's own (a worktree's). */
export const ChatContext = createContext<ChatController | null>(null)

/** The chat this component renders in: the one its agent panel shows, else its tab's project's. */
export function useChatController(): ChatController {
  const scoped = useContext(ChatContext)
  const projectId = useProject((s) => s.projectId)
  const bridge = useProject((s) => s.bridge)
  return scoped ?? chatFor(bridge, projectId)
}

/** The worktrees of a tab (main project id). */
export function worktreesFor(bridge: HotaruBridge, projectId: string): WorktreesController {
  return projectClient(bridge, projectId).worktrees
}

export function useChat<T>(selector: (state: ChatState) => T): T {
  return useStore(useChatController().store, selector)
}

export function useCheckpoints<T>(selector: (state: CheckpointState) => T): T {
  return useStore(useChatController().checkpoints.store, selector)
}

/** The chat the active project tab shows (its main folder's or a worktree's), for commands run from the palette. */
export function activeChat(): ChatController | undefined {
  const { activeId, bridge } = useWorkspace.getState()
  return activeId && bridge ? chatFor(bridge, shownChatProject(activeId)) : undefined
}

/**
 * Brings a session in front of the user from anywhere (Activity view, a notification): its tab, the tab's
 * chat switched to its worktree (or main folder), the agent panel open, the session selected.
 */
export function openSession(projectId: string, sessionId: string): void {
  const { bridge } = useWorkspace.getState()
  if (!bridge) return
  const main = tabOf(projectId)
  workspace.activate(main)
  chatScope.show(main, worktreeOfProject(projectId)?.name)
  existingProjectStore(main)?.getState().setView({ right: true })
  chatFor(bridge, projectId).selectSession(sessionId)
}

export type { ChatController, PermissionReply } from './chat-controller'
export type { ChatState, PendingPrompt, Todo } from './project-chat'
export type { Transcript } from './chat-model'
export { REVIEW_NOTE_END } from './checkpoints'
export type { ChangesView, CheckpointsController, CheckpointState, RestoreResult } from './checkpoints'
