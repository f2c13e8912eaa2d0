import { ipcMain, type WebContents } from 'electron'
import { ErrorNames } from '@shared/errors'
import type { Services } from '../core/services'
import { Connection, type PreviewSurface, type Router } from '../ipc'
import { isTrustedSender } from '../ipc/sender'

/**
 * The Electron transport: one `ipcMain.handle` per contract method. The sender
 * is checked before anything else, then the shared router parses the payload.
 * Events go to the windows whose connection shows the event's project.
 */
export function registerIpc(
  services: Services,
  router: Router,
  /** Where the page of `contents` shows previews (its window's views). */
  previewSurface?: (contents: WebContents) => PreviewSurface | undefined,
): { connectionFor(contents: WebContents): Connection; dispose(): void } {
  const connections = new Map<number, Connection>()

  const connectionFor = (contents: WebContents): Connection => {
    let connection = connections.get(contents.id)
    if (!connection) {
      const created = new Connection(`window-${contents.id}`, (event) => {
        if (!contents.isDestroyed()) contents.send(event.channel, event.envelope)
      })
      const surface = previewSurface?.(contents)
      if (surface) created.preview = surface
      connections.set(contents.id, created)
      contents.once('destroyed', () => connections.delete(contents.id))
      connection = created
    }
    return connection
  }

  for (const channel of router.channels) {
    ipcMain.handle(channel, (event, payload: unknown) => {
      const frame = event.senderFrame
      const trusted = isTrustedSender({
        frameUrl: frame ? frame.url : null,
        isMainFrame: frame !== null && frame === event.sender.mainFrame,
      })
      if (!trusted) {
        return { ok: false, error: { name: ErrorNames.Forbidden, data: { message: 'untrusted sender' } } }
      }
      return router.handle(connectionFor(event.sender), channel, payload)
    })
  }
  const events = services.bus.subscribe((event) => {
    for (const connection of connections.values()) connection.offer(event)
  })

  return {
    connectionFor,
    dispose() {
      events.dispose()
      for (const channel of router.channels) ipcMain.removeHandler(channel)
    },
  }
}
