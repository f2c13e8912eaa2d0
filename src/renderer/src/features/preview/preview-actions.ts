import type { HotaruBridge } from '@shared/ipc'
import { errorMessage, unwrap } from '../../ipc'
import { workspace } from '../../stores/workspace'
import type { PreviewStore } from './preview-store'

/**
 * Opens what the user typed (or the dev server's address) in the pane. A page
 * that is not on loopback goes to the system browser: the app opened it already;
 * in a browser (`serve`) it opens in a new tab.
 */
export async function openAddress(bridge: HotaruBridge, store: PreviewStore, projectId: string, address: string, options: { typed?: boolean } = {}): Promise<void> {
  const text = address.trim()
  if (!text) return
  try {
    const opened = await unwrap(bridge.preview.open({ projectId, url: text, typed: options.typed ?? true }))
    if (opened.action === 'external') {
      window.open(opened.url, '_blank', 'noopener,noreferrer')
      store.setState((s) => ({ address: s.url ?? '' }))
      return
    }
    if (opened.action === 'opened') {
      store.setState((s) => ({ address: s.url ?? '' }))
      return
    }
    // Another page: the last one's messages no longer describe what is shown (as a browser's console clears).
    store.setState({ url: opened.url, address: opened.url, frameUrl: opened.frameUrl, loading: true, error: null, title: '', console: [] })
  } catch (error) {
    workspace.showError(`Preview: ${errorMessage(error)}`)
  }
}

/** Maps an address of the preview origin (what the frame reports) back to the dev server's own. */
export function pageUrlOf(frameReported: string, frameUrl: string, pageUrl: string): string {
  try {
    const reported = new URL(frameReported)
    const frame = new URL(frameUrl)
    if (reported.origin !== frame.origin) return frameReported
    return new URL(`${reported.pathname}${reported.search}${reported.hash}`, new URL(pageUrl).origin).href
  } catch {
    return frameReported
  }
}

/** Starts the folder's dev server (launch.json or the detected one); its status events move the pane along. */
export async function startServer(bridge: HotaruBridge, store: PreviewStore, projectId: string): Promise<void> {
  try {
    const status = await unwrap(bridge.preview.start({ projectId }))
    store.setState({ server: status })
    if (status.state === 'ready' && status.url) await openAddress(bridge, store, projectId, status.url, { typed: false })
  } catch (error) {
    workspace.showError(`Preview: ${errorMessage(error)}`)
  }
}

export async function stopServer(bridge: HotaruBridge, store: PreviewStore, projectId: string): Promise<void> {
  try {
    store.setState({ server: await unwrap(bridge.preview.stop({ projectId })) })
  } catch (error) {
    workspace.showError(`Preview: ${errorMessage(error)}`)
  }
}
