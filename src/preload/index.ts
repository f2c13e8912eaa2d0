import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron'
import { channels, eventChannel, eventListenerName, methodChannel } from '@shared/ipc/channels'

/**
 * Builds `window.hotaru`: one named method per contract method and one `onX`
 * subscription per event — never a generic invoke/on, so the page can reach
 * nothing beyond the contract. Payloads are validated again in main.
 */
function buildBridge(): Record<string, Record<string, unknown>> {
  const bridge: Record<string, Record<string, unknown>> = {}
  for (const [domain, spec] of Object.entries(channels)) {
    const api: Record<string, unknown> = {}
    for (const method of spec.methods) {
      const channel = methodChannel(domain, method)
      api[method] = (input: unknown) => ipcRenderer.invoke(channel, input)
    }
    for (const event of spec.events) {
      const channel = eventChannel(domain, event)
      api[eventListenerName(event)] = (listener: (envelope: unknown) => void) => {
        if (typeof listener !== 'function') throw new TypeError('listener must be a function')
        const wrapped = (_event: IpcRendererEvent, envelope: unknown): void => listener(envelope)
        ipcRenderer.on(channel, wrapped)
        return () => {
          ipcRenderer.off(channel, wrapped)
        }
      }
    }
    bridge[domain] = api
  }
  return bridge
}

contextBridge.exposeInMainWorld('hotaru', buildBridge())
contextBridge.exposeInMainWorld('hotaruDesktop', {
  /** The filesystem path of a dropped File (Electron only; browsers expose none). */
  pathForFile: (file: File): string => webUtils.getPathForFile(file),
})
