import { useEffect, useState, type ReactNode } from 'react'
import { ChatPanel, installChatCommands } from './features/chat'
import { ActivityView, AskNotices, installActivityCommands } from './features/activity'
import { installPreviewCommands } from './features/preview'
import { SettingsPage } from './features/settings'
import { ProjectTabs } from './features/tabs'
import { TrustPrompt } from './features/trust'
import { Workspace } from './features/workspace'
import { StatusBar } from './StatusBar'
import { useWorkspace, workspace } from './stores/workspace'
import { existingProjectStore } from './stores/project'
import { useChatScope } from './stores/chat-scope'
import { shownWorktree } from './stores/shown-folder'
import { windowTitle } from './features/workspace/title'
import { Icon } from './components/Icon'

/**
 * RIGHT-HAND PANEL SLOT — the agent chat mounts here. Return the chat for
 * `projectId`; it renders inside that project's ProjectStoreContext, in a
 * resizable, collapsible panel whose size and visibility are saved per project
 * (Mod+Alt+B toggles it). Returning null removes the panel.
 */
function renderRightPanel(projectId: string): ReactNode {
  return <ChatPanel key={projectId} />
}

/**
 * Without a connection nothing in the page works: a blocking notice with the
 * reason instead of a page that looks normal. What was typed stays in place;
 * calls made meanwhile wait and are sent once the connection is back.
 */
function ConnectionBlocker() {
  const connection = useWorkspace((s) => s.connection)
  const detail = useWorkspace((s) => s.connectionDetail)
  if (connection === 'open' || connection === 'connecting') return null
  const unauthorized = connection === 'unauthorized'
  return (
    <div className="connection-blocker" role="alertdialog" aria-modal="true" aria-labelledby="connection-title" aria-describedby="connection-reason" data-testid="connection-blocker">
      <div className="connection-card">
        <h2 id="connection-title">{unauthorized ? 'Not connected' : 'Disconnected — reconnecting…'}</h2>
        <p id="connection-reason">{detail ?? (unauthorized ? 'This page has no valid token.' : 'The Hotaru server is not reachable.')}</p>
        <p className="muted">
          {unauthorized
            ? 'Open the address that "hotaru serve" printed (it carries the token), or start it again.'
            : 'Nothing you typed is lost: messages wait here and are sent once the connection is back.'}
        </p>
      </div>
    </div>
  )
}

/** Keeps document.title (the window and browser tab title) as "file — project — Hotaru". */
function useWindowTitle(): void {
  const activeId = useWorkspace((s) => s.activeId)
  const name = useWorkspace((s) => s.projects.find((p) => p.id === s.activeId)?.name ?? null)
  // The file is the one the editor shows: a worktree's while the tab shows its chat.
  const folderId = useChatScope((s) => (activeId ? (shownWorktree(activeId, s)?.projectId ?? activeId) : null))
  useEffect(() => {
    const store = folderId ? existingProjectStore(folderId) : undefined
    const apply = (): void => {
      const state = store?.getState()
      const file = state?.activeFile ?? null
      document.title = windowTitle(name, file, file ? (state?.docs[file]?.dirty ?? false) : false)
    }
    apply()
    return store?.subscribe(apply)
  }, [folderId, name])
}

/** How long an error banner stays before it goes by itself (it can be dismissed at once). */
const BANNER_MS = 10_000

function ErrorBanner() {
  const error = useWorkspace((s) => s.error)
  const activeId = useWorkspace((s) => s.activeId)
  // A banner belongs to the moment it appeared: it expires, and switching project tabs clears it.
  useEffect(() => {
    if (!error) return
    const timer = setTimeout(() => workspace.dismissError(), BANNER_MS)
    return () => clearTimeout(timer)
  }, [error])
  const [shownFor, setShownFor] = useState(activeId)
  if (shownFor !== activeId) {
    setShownFor(activeId)
    if (error) workspace.dismissError()
  }
  if (!error) return null
  return (
    <div className="banner error" role="alert" data-testid="error-banner">
      <span>{error}</span>
      <button type="button" className="icon" aria-label="Dismiss" onClick={() => workspace.dismissError()}>
        <Icon name="close" />
      </button>
    </div>
  )
}

export function App() {
  useEffect(() => installChatCommands(), [])
  useEffect(() => installActivityCommands(), [])
  useEffect(() => installPreviewCommands(), [])
  useWindowTitle()
  return (
    <div className="app">
      <ProjectTabs />
      <ErrorBanner />
      <div className="content">
        <Workspace renderRight={renderRightPanel} />
      </div>
      <StatusBar />
      <SettingsPage />
      <TrustPrompt />
      <ActivityView />
      <AskNotices />
      <ConnectionBlocker />
    </div>
  )
}
