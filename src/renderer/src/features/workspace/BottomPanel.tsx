import { useStore } from 'zustand'
import { useShallow } from 'zustand/react/shallow'
import { useProjectStore } from '../../stores/project'
import { countProblems, problemsFor, ProblemsPanel } from '../problems'
import { TerminalPanel } from '../terminal'
import { AreaBoundary } from '../failures'

/** The bottom panel: the terminals, or the Problems list; both stay mounted so terminals keep running. */
export function BottomPanel() {
  const projectStore = useProjectStore()
  const { bridge, projectId } = projectStore.getState()
  const problems = problemsFor(bridge, projectId)
  const shown = useStore(problems, (s) => s.shown)
  const counts = useStore(problems, useShallow((s) => countProblems(s.files)))
  return (
    <div className="bottom-panel">
      <div className="bottom-tabs" role="tablist" aria-label="Bottom panel">
        <button type="button" role="tab" aria-selected={!shown} className={!shown ? 'active' : ''} onClick={() => problems.setState({ shown: false })}>
          Terminal
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={shown}
          className={shown ? 'active' : ''}
          data-testid="problems-tab"
          onClick={() => problems.setState({ shown: true })}
        >
          Problems{counts.errors + counts.warnings > 0 ? ` (${counts.errors + counts.warnings})` : ''}
        </button>
      </div>
      <div className="bottom-body" hidden={shown}>
        <AreaBoundary area="terminal panel">
          <TerminalPanel />
        </AreaBoundary>
      </div>
      {shown && (
        <div className="bottom-body">
          <AreaBoundary area="Problems panel">
            <ProblemsPanel />
          </AreaBoundary>
        </div>
      )}
    </div>
  )
}
