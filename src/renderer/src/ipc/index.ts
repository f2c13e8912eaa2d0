import type { HotaruBridge } from '@shared/ipc'
import { createWebSocketBridge, takeToken, type ConnectionState } from './websocket'

export interface Transport {
  bridge: HotaruBridge
  kind: 'electron' | 'serve'
}

/** Preload present → the desktop app; otherwise the WebSocket of the page's own server. */
export function connect(onState: (state: ConnectionState, detail?: string) => void): Transport {
  if (window.hotaru) {
    onState('open')
    return { bridge: window.hotaru, kind: 'electron' }
  }
  return { bridge: createWebSocketBridge(takeToken(), onState), kind: 'serve' }
}

export { IpcError, unwrap, errorMessage } from './errors'
export type { ConnectionState } from './websocket'
