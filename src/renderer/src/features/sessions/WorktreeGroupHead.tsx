import type { Worktree } from '@shared/schema/worktree'
import { BranchIcon } from '../../components/BranchIcon'
import { WorktreeActions, changesLabel } from '../worktrees'

/** The heading of a worktree's sessions in the list: name, branch, changes, and its actions. */
export function WorktreeGroupHead({ tabId, worktree }: { tabId: string; worktree: Worktree }) {
  return (
    <div className="session-group-head" data-testid="worktree-group-head">
      <BranchIcon />
      <span className="worktree-name">{worktree.name}</span>
      <span className="worktree-meta muted" title={worktree.path}>
        {worktree.branch ?? 'copy of the folder'} · {changesLabel(worktree)}
      </span>
      <span className="worktree-actions">
        <WorktreeActions tabId={tabId} worktree={worktree} />
      </span>
    </div>
  )
}
