import type { Worktree } from '@shared/schema/worktree'
import { worktreesFor } from '../../stores/chat'
import { useWorkspace, workspace } from '../../stores/workspace'
import { errorMessage, IpcError } from '../../ipc'
import { confirmDialog } from '../dialogs'

/**
 * Removes a worktree after a confirm. Core refuses while it has changes not merged back; the user is then
 * told how many and may remove it anyway (the changes are lost).
 */
export async function removeWorktree(tabId: string, worktree: Worktree): Promise<void> {
  const bridge = useWorkspace.getState().bridge
  if (!bridge) return
  const what = worktree.kind === 'git' ? `the worktree folder and its branch ${worktree.branch ?? ''}` : 'the copied folder'
  const ok = await confirmDialog({ title: `Remove worktree ${worktree.name}`, message: `Remove ${what}? Its sessions stop.`, confirmLabel: 'Remove', danger: true })
  if (!ok) return
  const controller = worktreesFor(bridge, tabId)
  try {
    await controller.remove(worktree.name)
  } catch (error) {
    if (!(error instanceof IpcError && error.name === 'WorktreeUnmerged')) {
      workspace.showError(`Remove failed: ${errorMessage(error)}`)
      return
    }
    const files = (error.data as { changedFiles?: unknown }).changedFiles
    const count = Array.isArray(files) ? files.length : typeof files === 'number' ? files : null
    const force = await confirmDialog({
      title: `Worktree ${worktree.name} has unmerged changes`,
      message: `${count === null ? 'Some files' : `${count} file${count === 1 ? '' : 's'}`} changed in it ${count === 1 ? 'is' : 'are'} not merged back. Remove it anyway and lose ${count === 1 ? 'that change' : 'those changes'}?`,
      confirmLabel: 'Remove anyway',
      danger: true,
    })
    if (!force) return
    try {
      await controller.remove(worktree.name, { force: true })
    } catch (again) {
      workspace.showError(`Remove failed: ${errorMessage(again)}`)
    }
  }
}
