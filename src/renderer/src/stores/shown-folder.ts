import type { Worktree } from '@shared/schema/worktree'
import { shownChatProject, useChatScope, type ChatScopeState } from './chat-scope'
import { existingProjectStore, projectStoreFor, useProjectStore, type ProjectStore } from './project'
import { useWorkspace } from './workspace'

/**
 * The folder a tab works in now: the worktree whose chat it shows (once its project is open here), else the
 * main folder. The file tree, find in files, the editor, Quick Open and the composer's @-mentions follow it,
 * so what the user browses is what the session on screen reads and edits.
 */
export function shownWorktree(mainId: string, s: ChatScopeState = useChatScope.getState()): Worktree | undefined {
  const projectId = shownChatProject(mainId, s)
  if (projectId === mainId) return undefined
  const worktree = s.worktrees[mainId]?.find((w) => w.projectId === projectId)
  return worktree?.open ? worktree : undefined
}

/** The store of the folder tab `mainId` shows (the main folder's own store when no worktree is shown). */
export function shownFolderStore(mainId: string, s: ChatScopeState = useChatScope.getState()): ProjectStore | undefined {
  const main = existingProjectStore(mainId)
  const worktree = shownWorktree(mainId, s)
  if (!main || !worktree) return main
  return projectStoreFor(main.getState().bridge, worktree.projectId, worktree.path)
}

/** The same for the active tab, for commands run from the palette or a shortcut. */
export function activeFolderStore(): ProjectStore | undefined {
  const id = useWorkspace.getState().activeId
  return id ? shownFolderStore(id) : undefined
}

/** Inside a tab: the store of the folder it shows now (re-rendering when the tab switches folders). */
export function useShownFolderStore(): ProjectStore {
  const tab = useProjectStore()
  const mainId = tab.getState().projectId
  const worktree = useChatScope((s) => shownWorktree(mainId, s))
  return worktree ? projectStoreFor(tab.getState().bridge, worktree.projectId, worktree.path) : tab
}


/**
 * Switching a tab to a worktree's folder keeps the user's editor tabs: a worktree whose editor has no files
 * open yet (once its saved layout is read) opens the files the main folder has open, at the same paths in its
 * copy, with the same one active. Returns the unsubscribe of the wait for its layout.
 */
export function carryOverTabs(main: ProjectStore, folder: ProjectStore): () => void {
  if (main === folder) return () => undefined
  const apply = (): void => {
    const { openFiles, activeFile } = main.getState()
    const target = folder.getState()
    if (target.openFiles.length > 0 || openFiles.length === 0) return
    for (const path of openFiles) target.addOpenFile(path, false)
    if (activeFile) target.setActiveFile(activeFile)
  }
  if (folder.getState().layoutReady) {
    apply()
    return () => undefined
  }
  const off = folder.subscribe((s) => {
    if (!s.layoutReady) return
    off()
    apply()
  })
  return off
}
