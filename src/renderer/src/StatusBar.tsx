import { useEffect, useState } from 'react'
import { ActivityButton } from './features/activity'
import { ProblemCounts, problemsFor } from './features/problems'
import { NoticesButton } from './features/notices'
import { ProcessesButton } from './features/processes'
import { PreviewButton } from './features/preview'
import { projectStoreFor, existingProjectStore } from './stores/project'
import { useWorkspace } from './stores/workspace'

/** The visible way to show or hide the active project's terminal panel (also Ctrl+`). */
function TerminalToggle() {
  const activeId = useWorkspace((s) => s.activeId)
  const store = activeId ? existingProjectStore(activeId) : undefined
  const [, rerender] = useState(0)
  useEffect(() => store?.subscribe((s, prev) => s.view.terminal !== prev.view.terminal && rerender((n) => n + 1)), [store])
  if (!store) return null
  const shown = store.getState().view.terminal
  return (
    <button
      type="button"
      className="ghost small statusbar-button"
      aria-pressed={shown}
      title="Toggle the terminal panel (Ctrl+`)"
      onClick={() => store.getState().setView({ terminal: !store.getState().view.terminal })}
    >
      Terminal
    </button>
  )
}

export function StatusBar() {
  const connection = useWorkspace((s) => s.connection)
  const detail = useWorkspace((s) => s.connectionDetail)
  const info = useWorkspace((s) => s.info)
  const activeId = useWorkspace((s) => s.activeId)
  const bridge = useWorkspace((s) => s.bridge)
  const root = useWorkspace((s) => s.projects.find((p) => p.id === s.activeId)?.root)
  const showProblems = (projectId: string): void => {
    if (!bridge) return
    problemsFor(bridge, projectId).setState({ shown: true })
    projectStoreFor(bridge, projectId).getState().setView({ terminal: true })
  }
  // Each item keys on its own name and the project: two items under one key leave the old one mounted on a tab switch.
  return (
    <footer className="statusbar" data-testid="statusbar">
      <span className={`dot ${connection}`} aria-hidden />
      <span data-testid="connection-state">{connection === 'open' ? 'Connected' : (detail ?? connection)}</span>
      {activeId && bridge && <ProblemCounts key={`problems-${activeId}`} bridge={bridge} projectId={activeId} onShow={() => showProblems(activeId)} />}
      <TerminalToggle />
      {activeId && bridge && <PreviewButton key={`preview-${activeId}`} bridge={bridge} projectId={activeId} />}
      {activeId && bridge && <ProcessesButton key={`processes-${activeId}`} bridge={bridge} projectId={activeId} />}
      {activeId && bridge && root !== undefined && <NoticesButton key={`notices-${activeId}`} bridge={bridge} projectId={activeId} root={root} />}
      <ActivityButton />
      {info && (
        <span className="muted right">
          {info.name} {info.version}
        </span>
      )}
    </footer>
  )
}
