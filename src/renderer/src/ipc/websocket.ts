import { channels, eventListenerName, type EventEnvelope, type HotaruBridge } from '@shared/ipc'
import type { ErrorData, IpcResult } from '@shared/errors'

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'unauthorized'

type Listener = (envelope: EventEnvelope) => void
type ServerFrame =
  | { type: 'result'; id: number | string | null; result: IpcResult<unknown> }
  | ({ type: 'event'; channel: string } & EventEnvelope)
  | { type: 'error'; error: ErrorData }

const TOKEN_KEY = 'hotaru.token'

/** The token from `?token=` (then removed from the address bar), or the one this tab saw before. */
export function takeToken(): string | null {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl)
    url.searchParams.delete('token')
    window.history.replaceState(null, '', url.toString())
    return fromUrl
  }
  return sessionStorage.getItem(TOKEN_KEY)
}

/**
 * The same bridge the preload exposes, over the `hotaru serve` WebSocket.
 * Reconnects with backoff; calls made while disconnected wait for the socket.
 */
export function createWebSocketBridge(
  token: string | null,
  onState: (state: ConnectionState, detail?: string) => void,
): HotaruBridge {
  const listeners = new Map<string, Set<Listener>>()
  const pending = new Map<number, (result: IpcResult<unknown>) => void>()
  const queue: string[] = []
  let nextId = 1
  let socket: WebSocket | null = null
  let attempt = 0
  let stopped = false

  const endpoint = (): string => {
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws'
    return `${scheme}://${window.location.host}/ws?token=${encodeURIComponent(token ?? '')}`
  }

  const connect = (): void => {
    onState(attempt === 0 ? 'connecting' : 'reconnecting')
    const ws = new WebSocket(endpoint())
    socket = ws
    ws.onopen = () => {
      attempt = 0
      onState('open')
      for (const message of queue.splice(0)) ws.send(message)
    }
    ws.onmessage = (message) => handleFrame(JSON.parse(String(message.data)) as ServerFrame)
    ws.onclose = (event) => {
      socket = null
      const disconnected: IpcResult<unknown> = {
        ok: false,
        error: { name: 'Disconnected', data: { message: 'connection to Hotaru was lost' } },
      }
      for (const resolve of pending.values()) resolve(disconnected)
      pending.clear()
      if (event.code === 4401) {
        stopped = true
        onState('unauthorized', 'this page needs the URL printed by "hotaru serve" (with its token)')
        return
      }
      if (stopped) return
      attempt++
      setTimeout(connect, Math.min(250 * 2 ** attempt, 5000))
      onState('reconnecting')
    }
  }

  const handleFrame = (frame: ServerFrame): void => {
    if (frame.type === 'result') {
      if (typeof frame.id !== 'number') return
      pending.get(frame.id)?.(frame.result)
      pending.delete(frame.id)
    } else if (frame.type === 'event') {
      const { channel, type: _type, ...envelope } = frame
      for (const listener of listeners.get(channel) ?? []) listener(envelope)
    } else if (frame.type === 'error') {
      onState('unauthorized', frame.error.data.message)
    }
  }

  const call = (method: string, input: unknown): Promise<IpcResult<unknown>> =>
    new Promise((resolve) => {
      const id = nextId++
      pending.set(id, resolve)
      const message = JSON.stringify({ id, method, input: input ?? {} })
      if (socket?.readyState === WebSocket.OPEN) socket.send(message)
      else queue.push(message)
    })

  const bridge: Record<string, Record<string, unknown>> = {}
  for (const [domain, spec] of Object.entries(channels)) {
    const api: Record<string, unknown> = {}
    for (const method of spec.methods) api[method] = (input: unknown) => call(`${domain}.${method}`, input)
    for (const event of spec.events) {
      const channel = `${domain}:${event}`
      api[eventListenerName(event)] = (listener: Listener) => {
        const set = listeners.get(channel) ?? new Set<Listener>()
        listeners.set(channel, set)
        set.add(listener)
        return () => set.delete(listener)
      }
    }
    bridge[domain] = api
  }
  connect()
  return bridge as unknown as HotaruBridge
}
