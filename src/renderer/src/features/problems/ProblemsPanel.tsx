import { useStore } from 'zustand'
import type { LspDiagnostic } from '@shared/ipc/lsp'
import { errorMessage, unwrap } from '../../ipc'
import { useProjectStore } from '../../stores/project'
import { workspace } from '../../stores/workspace'
import { openFile } from '../editor'
import { problemsFor } from '../../stores/problems'
import { Icon, type IconName } from '../../components/Icon'

/** Runs a server action; a failure is shown in the app's error banner. */
function act(run: Promise<unknown>): void {
  run.catch((error: unknown) => workspace.showError(errorMessage(error)))
}

const ICON: Record<LspDiagnostic['severity'], IconName> = { error: 'error', warning: 'warning', info: 'info', hint: 'info' }

/** Servers that need the user: missing with an install offer, or degraded with a reason. */
function ServerNotices() {
  const projectStore = useProjectStore()
  const { bridge, projectId } = projectStore.getState()
  const servers = useStore(problemsFor(bridge, projectId), (s) => s.servers)
  const notices = Object.values(servers).filter((s) => s.state === 'degraded' || (s.state === 'missing' && s.install && !s.install.declined))
  if (notices.length === 0) return null
  return (
    <ul className="problems-notices">
      {notices.map((s) => (
        <li key={s.id} data-testid="lsp-notice" data-server={s.id}>
          <span>
            {s.name}: {s.reason}
          </span>
          {s.state === 'missing' && s.install && (
            <>
              <button type="button" className="small" onClick={() => act(unwrap(bridge.lsp.install({ projectId, server: s.id, allow: true })))}>
                Install {s.install.packages.join(' + ')}
              </button>
              <button type="button" className="ghost small" onClick={() => act(unwrap(bridge.lsp.install({ projectId, server: s.id, allow: false })))}>
                Not now
              </button>
            </>
          )}
          {s.state === 'degraded' && (
            <button type="button" className="ghost small" onClick={() => act(unwrap(bridge.lsp.restart({ projectId, server: s.id })))}>
              Restart
            </button>
          )}
        </li>
      ))}
    </ul>
  )
}

/** The project's problems from its language servers, grouped by file; a row opens the file. */
export function ProblemsPanel() {
  const projectStore = useProjectStore()
  const { bridge, projectId } = projectStore.getState()
  const files = useStore(problemsFor(bridge, projectId), (s) => s.files)
  const sorted = Object.values(files).sort((a, b) => a.path.localeCompare(b.path))
  return (
    <section className="problems" aria-label="Problems" data-testid="problems-panel">
      <ServerNotices />
      {sorted.length === 0 ? (
        <p className="muted problems-empty">No problems have been found in the open files.</p>
      ) : (
        <ul className="problems-files">
          {sorted.map((file) => (
            <li key={file.path} data-testid="problems-file" data-path={file.path}>
              <div className="problems-file mono">
                {file.path} <span className="muted">({file.diagnostics.length})</span>
              </div>
              <ul>
                {file.diagnostics.map((d, i) => (
                  <li key={i}>
                    <button
                      type="button"
                      className={`problem problem-${d.severity}`}
                      data-testid="problem"
                      onClick={() => openFile(projectStore, file.path)}
                      title={`${file.path}:${d.line}:${d.column}`}
                    >
                      <span className="problem-icon" aria-label={d.severity}>
                        <Icon name={ICON[d.severity]} />
                      </span>
                      <span className="problem-message">{d.message}</span>
                      {d.code && <span className="muted mono"> {d.code}</span>}
                      <span className="muted mono">
                        {' '}
                        [{d.line}, {d.column}]
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
