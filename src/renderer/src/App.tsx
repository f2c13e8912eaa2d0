import { useEffect, type ReactNode } from 'react'
import { ChatPanel, installChatCommands } from './features/chat'
import { SettingsDialog } from './features/settings'
import { ProjectTabs } from './features/tabs'
import { TrustPrompt } from './features/trust'
import { Workspace } from './features/workspace'
import { ProblemCounts, problemsFor } from './features/problems'
import { projectStoreFor } from './stores/project'
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
  const activeId = useWorkspace((s) => s.activeId)
  const bridge = useWorkspace((s) => s.bridge)
  const showProblems = (projectId: string): void => {
    if (!bridge) return
    problemsFor(bridge, projectId).setState({ shown: true })
    projectStoreFor(bridge, projectId).getState().setView({ terminal: true })
  }
  return (
    <footer className="statusbar" data-testid="statusbar">
      <span className={`dot ${connection}`} aria-hidden />
      <span data-testid="connection-state">{connection === 'open' ? 'Connected' : (detail ?? connection)}</span>
      {activeId && bridge && <ProblemCounts key={activeId} bridge={bridge} projectId={activeId} onShow={() => showProblems(activeId)} />}
      {info && (
        <span className="muted right">
          {info.name} {info.version}
        </span>
      )}
    </footer>
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
      <TrustPrompt />
    </div>
  )
}
