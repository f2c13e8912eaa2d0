import { useProject } from '../../stores/project'
import { ConflictView } from './ConflictView'
import { MergeDialog } from './MergeDialog'
import { MergeEditor } from './MergeEditor'
import { NewWorktreeDialog } from './NewWorktreeDialog'
import { useWorktreeView } from './state'
import { WorktreeChanges } from './WorktreeChanges'

/** The open worktree view of this tab, if any (rendered inside the tab so diffs follow its layout settings). */
export function WorktreeOverlays() {
  const tabId = useProject((s) => s.projectId)
  const view = useWorktreeView((s) => (s.view?.tabId === tabId ? s.view : null))
  if (!view) return null
  switch (view.kind) {
    case 'create':
      return <NewWorktreeDialog tabId={tabId} />
    case 'changes':
      return <WorktreeChanges tabId={tabId} name={view.name} />
    case 'merge':
      return <MergeDialog tabId={tabId} name={view.name} />
    case 'merge-editor':
      return <MergeEditor key={`${view.name}\0${view.path}`} tabId={tabId} name={view.name} path={view.path} />
    case 'conflict':
      return <ConflictView tabId={tabId} name={view.name} path={view.path} {...(view.mainPath !== undefined ? { mainPath: view.mainPath } : {})} />
  }
}
