import type { HotaruBridge } from '@shared/ipc'
import { unwrap } from '../../ipc'
import { background } from '../../lib/background'
import { openAddress } from './preview-actions'
import { previewFor } from './preview-store'

/**
 * Shows or hides a tab's Preview pane. `tabId` is the tab's project (it keeps the
 * pane's open flag); `folderId` the folder previewed (a worktree's while its session
 * is on screen). Hiding unloads the page; showing again reopens the last address.
 */
export function setPreviewOpen(bridge: HotaruBridge, tabId: string, folderId: string, open: boolean): void {
  previewFor(bridge, tabId).setState({ open })
  const folder = previewFor(bridge, folderId)
  const { url, address } = folder.getState()
  if (!open && url) {
    folder.setState({ url: null, frameUrl: null, loading: false, title: '', canGoBack: false, canGoForward: false })
    background('preview close', unwrap(bridge.preview.close({ projectId: folderId })))
  }
  if (open && !url && address) background('preview open', openAddress(bridge, folder, folderId, address))
}
