import type { ProjectInfo } from '@shared/schema/project'
import { Icon } from '../../components/Icon'
import { workspace } from '../../stores/workspace'
import { background } from '../../lib/background'
import { closeProjectTab } from './commands'

/**
 * Covers a project tab whose folder is no longer at its path. The tab stays (editors keep unsaved
 * text) and recovers by itself when the folder comes back; Locate… reopens it where it is now.
 */
export function MissingProject({ project }: { project: ProjectInfo }) {
  return (
    <div className="missing-project" role="alert" data-testid="missing-project">
      <div className="missing-project-box">
        <h2>
          <Icon name="warning" /> The folder <span className="mono">{project.root}</span> is no longer there
        </h2>
        <p className="muted">
          It was deleted, renamed or moved, or its disk is not mounted. Nothing is written there meanwhile and the agent cannot run. Put the folder back and
          this tab comes back by itself, or locate it where it is now.
        </p>
        <div className="missing-project-actions">
          <button type="button" className="primary" onClick={() => background('workspace.locate', workspace.locate(project.id))} data-testid="missing-locate">
            Locate…
          </button>
          <button type="button" onClick={() => background('closeProjectTab', closeProjectTab(project.id))} data-testid="missing-close">
            Close
          </button>
        </div>
      </div>
    </div>
  )
}
