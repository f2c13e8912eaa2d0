export { WorktreeActions, WorktreeBar, changesLabel } from './WorktreeBar'
export { WorktreeOverlays } from './WorktreeOverlays'
export { showWorktreeView } from './state'
import './worktrees.css'
