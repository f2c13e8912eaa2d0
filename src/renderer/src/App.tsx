import { useEffect, type ReactNode } from 'react'
import { ChatPanel, installChatCommands } from './features/chat'
import { SettingsDialog } from './features/settings'
import { ProjectTabs } from './features/tabs'
import { Workspace } from './features/workspace'
import { useWorkspace, workspace } from './stores/workspace'

/**
 * RIGHT-HAND PANEL SLOT — the agent chat mounts here. Return the chat for
 * `projectId`; it renders inside that project's ProjectStoreContext, in a
 * resizable, collapsible panel whose size and visibility are saved per project
 * (Mod+Alt+B toggles it). Returning null removes the panel.
 */
function renderRightPanel(projectId: string): ReactNode {
  return <ChatPanel key={projectId} />
}

function StatusBar() {
  const connection = useWorkspace((s) => s.connection)
  const detail = useWorkspace((s) => s.connectionDetail)
  const info = useWorkspace((s) => s.info)
  return (
    <footer className="statusbar" data-testid="statusbar">
      <span className={`dot ${connection}`} aria-hidden />
      <span data-testid="connection-state">{connection === 'open' ? 'Connected' : (detail ?? connection)}</span>
      {info && (
        <span className="muted right">
          {info.name} {info.version}
        </span>
      )}
    </footer>
  )
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

function ErrorBanner() {
  const error = useWorkspace((s) => s.error)
  if (!error) return null
  return (
    <div className="banner error" role="alert" data-testid="error-banner">
      <span>{error}</span>
      <button type="button" className="icon" aria-label="Dismiss" onClick={() => workspace.dismissError()}>
        ×
      </button>
    </div>
  )
}

export function App() {
  useEffect(() => installChatCommands(), [])
  return (
    <div className="app">
      <ProjectTabs />
      <ErrorBanner />
      <div className="content">
        <Workspace renderRight={renderRightPanel} />
      </div>
      <StatusBar />
      <SettingsDialog />
      <ConnectionBlocker />
    </div>
  )
}
