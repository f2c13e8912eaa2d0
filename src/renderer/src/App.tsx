import { useMemo } from 'react'
import { FileTree, FileViewer } from './features/files'
import { ProjectTabs } from './features/tabs'
import { Welcome } from './features/welcome'
import { ProjectStoreContext, projectStoreFor } from './stores/project'
import { useWorkspace, workspace } from './stores/workspace'

function ProjectView({ projectId }: { projectId: string }) {
  const bridge = useWorkspace((s) => s.bridge)
  const project = useWorkspace((s) => s.projects.find((p) => p.id === projectId))
  const store = useMemo(() => (bridge ? projectStoreFor(bridge, projectId) : null), [bridge, projectId])
  if (!store || !project) return null
  return (
    <ProjectStoreContext.Provider value={store}>
      <div className="project" data-testid="project-view" data-project-id={projectId}>
        <aside className="sidebar">
          <header className="sidebar-head" title={project.root}>
            {project.name}
          </header>
          <FileTree />
        </aside>
        <FileViewer />
      </div>
    </ProjectStoreContext.Provider>
  )
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
  const activeId = useWorkspace((s) => s.activeId)
  return (
    <div className="app">
      <ProjectTabs />
      <ErrorBanner />
      <div className="content">{activeId ? <ProjectView key={activeId} projectId={activeId} /> : <Welcome />}</div>
      <StatusBar />
    </div>
  )
}
