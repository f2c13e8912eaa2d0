import { useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { formatShortcut } from '../../lib/keys'
import { useWorkspace, workspace, type ProjectStatus } from '../../stores/workspace'
import { tabStatus, useChatScope } from '../../stores/chat-scope'
import { closeProjectTab } from '../workspace'
import { background } from '../../lib/background'
import { Icon } from '../../components/Icon'

const TAB_TYPE = 'application/x-hotaru-project-tab'

const STATUS_LABEL: Record<ProjectStatus, string> = {
  idle: '',
  running: 'agent running',
  waiting: 'waiting for your permission',
  error: 'error',
}

/** Project tabs: click or Ctrl+Tab to switch, drag to reorder, middle-click to close (Mod+W once no editor tab is open, asking). */
export function ProjectTabs() {
  const projects = useWorkspace(useShallow((s) => s.projects))
  const activeId = useWorkspace((s) => s.activeId)
  const status = useWorkspace((s) => s.status)
  const running = useWorkspace((s) => s.running)
  const missing = useWorkspace((s) => s.missing)
  const scope = useChatScope()
  const [dropAt, setDropAt] = useState<number | null>(null)
  return (
    <nav className="tabs" role="tablist" aria-label="Projects" data-testid="project-tabs">
      {projects.map((project, index) => {
        const { state, count } = tabStatus(project.id, status, running, scope)
        const active = project.id === activeId
        const gone = missing[project.id] === true
        return (
          <div
            key={project.id}
            role="tab"
            aria-selected={active}
            tabIndex={active ? 0 : -1}
            draggable
            className={`tab${active ? ' active' : ''}${gone ? ' missing' : ''}${dropAt === index ? ' drop-before' : ''}`}
            title={gone ? `${project.root} — the folder is missing` : `${project.root}${STATUS_LABEL[state] ? ` — ${STATUS_LABEL[state]}` : ''}`}
            data-project-id={project.id}
            data-missing={gone}
            onClick={() => workspace.activate(project.id)}
            onAuxClick={(e) => {
              if (e.button === 1) background('closeProjectTab', closeProjectTab(project.id))
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') workspace.activate(project.id)
              else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') workspace.cycleTab(e.key === 'ArrowRight' ? 1 : -1)
            }}
            onDragStart={(e) => {
              e.dataTransfer.setData(TAB_TYPE, project.id)
              e.dataTransfer.effectAllowed = 'move'
            }}
            onDragOver={(e) => {
              if (!e.dataTransfer.types.includes(TAB_TYPE)) return
              e.preventDefault()
              const box = e.currentTarget.getBoundingClientRect()
              setDropAt(e.clientX > box.left + box.width / 2 ? index + 1 : index)
            }}
            onDragLeave={() => setDropAt(null)}
            onDrop={(e) => {
              const id = e.dataTransfer.getData(TAB_TYPE)
              const target = dropAt
              setDropAt(null)
              if (!id || target === null) return
              e.preventDefault()
              const from = projects.findIndex((p) => p.id === id)
              workspace.moveTab(id, from < target ? target - 1 : target)
            }}
            onDragEnd={() => setDropAt(null)}
          >
            {gone ? (
              <Icon name="warning" label="folder missing" className="tab-missing" />
            ) : (
              <span className={`status-dot ${state}`} aria-label={STATUS_LABEL[state] || undefined} data-status={state} />
            )}
            <span className="tab-name">{project.name}</span>
            {count > 0 && (
              <span className="tab-running" title={`${count} session${count === 1 ? '' : 's'} running`} aria-label={`${count} session${count === 1 ? '' : 's'} running`} data-testid="tab-running">
                {count}
              </span>
            )}
            <button
              type="button"
              className="icon tab-close"
              aria-label={`Close ${project.name}`}
              title={`Close ${project.name}`}
              onClick={(e) => {
                e.stopPropagation()
                background('closeProjectTab', closeProjectTab(project.id))
              }}
            >
              <Icon name="close" />
            </button>
          </div>
        )
      })}
      {dropAt === projects.length && <span className="tab-drop-end" aria-hidden />}
      <button
        type="button"
        className={`tab new${activeId === null ? ' active' : ''}`}
        aria-label="Open a folder"
        title={`Open a folder (${formatShortcut('Mod+O')})`}
        onClick={() => workspace.activate(null)}
      >
        +
      </button>
    </nav>
  )
}
