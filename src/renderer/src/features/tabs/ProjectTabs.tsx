import { useShallow } from 'zustand/react/shallow'
import { useWorkspace, workspace } from '../../stores/workspace'

export function ProjectTabs() {
  const projects = useWorkspace(useShallow((s) => s.projects))
  const activeId = useWorkspace((s) => s.activeId)
  return (
    <nav className="tabs" role="tablist" aria-label="Projects" data-testid="project-tabs">
      {projects.map((project) => (
        <div
          key={project.id}
          role="tab"
          aria-selected={project.id === activeId}
          tabIndex={0}
          className={`tab${project.id === activeId ? ' active' : ''}`}
          title={project.root}
          onClick={() => workspace.activate(project.id)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ') workspace.activate(project.id)
          }}
        >
          <span className="tab-name">{project.name}</span>
          <button
            type="button"
            className="icon"
            aria-label={`Close ${project.name}`}
            onClick={(e) => {
              e.stopPropagation()
              void workspace.close(project.id)
            }}
          >
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        className={`tab new${activeId === null ? ' active' : ''}`}
        aria-label="Open a folder"
        title="Open a folder"
        onClick={() => workspace.activate(null)}
      >
        +
      </button>
    </nav>
  )
}
