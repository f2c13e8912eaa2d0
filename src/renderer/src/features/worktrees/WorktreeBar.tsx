import type { Worktree } from '@shared/schema/worktree'
import { BranchIcon } from '../../components/BranchIcon'
import { chatScope } from '../../stores/chat-scope'
import { background } from '../../lib/background'
import { removeWorktree } from './actions'
import { showWorktreeView } from './state'

/** "12 files changed", "merged", "no changes yet". */
export function changesLabel(worktree: Worktree): string {
  if (worktree.status === 'merged') return 'merged'
  if (worktree.changedFiles < 0) return 'changes not counted yet'
  if (worktree.changedFiles === 0) return 'no changes yet'
  return `${worktree.changedFiles} file${worktree.changedFiles === 1 ? '' : 's'} changed`
}

/** Changes / Merge… / Remove… of a worktree, as small buttons. */
export function WorktreeActions({ tabId, worktree }: { tabId: string; worktree: Worktree }) {
  return (
    <>
      <button type="button" className="small ghost" onClick={() => showWorktreeView({ kind: 'changes', tabId, name: worktree.name })} aria-label={`Changes of worktree ${worktree.name}`}>
        Changes
      </button>
      <button type="button" className="small ghost" onClick={() => showWorktreeView({ kind: 'merge', tabId, name: worktree.name })} aria-label={`Merge worktree ${worktree.name}`}>
        Merge…
      </button>
      <button type="button" className="small ghost" onClick={() => background('removeWorktree', removeWorktree(tabId, worktree))} aria-label={`Remove worktree ${worktree.name}`}>
        Remove…
      </button>
    </>
  )
}

/**
 * Above a worktree session's chat: which worktree (and branch) it works in, its changes against the base,
 * and the way back to the main folder's sessions.
 */
export function WorktreeBar({ tabId, worktree }: { tabId: string; worktree: Worktree }) {
  return (
    <div className="worktree-bar" data-testid="worktree-bar" data-worktree={worktree.name}>
      <span className="worktree-icon">
        <BranchIcon />
      </span>
      <span className="worktree-name" title={worktree.path}>
        {worktree.name}
      </span>
      {worktree.branch && <span className="branch">{worktree.branch}</span>}
      <span className="muted worktree-changes" data-testid="worktree-changes-count">
        {changesLabel(worktree)}
      </span>
      {worktree.ports && (
        <span className="muted worktree-ports" data-testid="worktree-ports" title="Commands in this worktree get HOTARU_PORT (the first) and HOTARU_PORTS">
          ports {worktree.ports.first}–{worktree.ports.last}
        </span>
      )}
      <span className="worktree-actions">
        <WorktreeActions tabId={tabId} worktree={worktree} />
        <button type="button" className="small ghost" title="Show the main folder's sessions" onClick={() => chatScope.show(tabId, undefined)}>
          Main folder
        </button>
      </span>
    </div>
  )
}
