import { channels, eventListenerName, type EventEnvelope, type HotaruBridge } from '@shared/ipc'
import type { ErrorData, IpcResult } from '@shared/errors'
import { decodePtyFrame } from '@shared/ipc/pty-frame'
import type { TerminalOutput } from '@shared/schema/terminal'

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

export interface SocketOptions {
  /** The `/ws` endpoint with its token. */
  url: string
  onState: (state: ConnectionState, detail?: string) => void
  /** The WebSocket class (the browser's; tests pass Node's). */
  WebSocketImpl?: typeof WebSocket
  /** Backoff before reconnect attempt n (ms). */
  backoff?: (attempt: number) => number
}

const DISCONNECTED: IpcResult<unknown> = {
  ok: false,
  error: { name: 'Disconnected', data: { message: 'the connection to Hotaru was lost before the answer came; the call may or may not have run' } },
}

/**
 * The same bridge the preload exposes, over the `hotaru serve` WebSocket.
 * Reconnects with backoff. A call made while disconnected waits and is sent
 * once the socket is back; a call already sent when the socket drops is
 * answered `Disconnected` and never sent again (the server may have run it).
 * Nothing is both reported failed and sent.
 */
export function createSocketBridge(options: SocketOptions): HotaruBridge {
  const Impl = options.WebSocketImpl ?? WebSocket
  const backoff = options.backoff ?? ((n: number) => Math.min(250 * 2 ** n, 5000))
  const listeners = new Map<string, Set<Listener>>()
  /** Sent on the current socket, waiting for their result. */
  const inFlight = new Map<number, (result: IpcResult<unknown>) => void>()
  /** Not sent yet (no open socket): sent in order when one opens. */
  const queue: { id: number; message: string; resolve: (result: IpcResult<unknown>) => void }[] = []
  let nextId = 1
  let socket: WebSocket | null = null
  let attempt = 0
  let stopped = false
  const { onState } = options

  const send = (ws: WebSocket, entry: (typeof queue)[number]): void => {
    inFlight.set(entry.id, entry.resolve)
    ws.send(entry.message)
  }

  const stop = (detail: string): void => {
    stopped = true
    const refused: IpcResult<unknown> = { ok: false, error: { name: 'Unauthorized', data: { message: detail } } }
    for (const entry of queue.splice(0)) entry.resolve(refused)
    onState('unauthorized', detail)
  }

  const connect = (): void => {
    onState(attempt === 0 ? 'connecting' : 'reconnecting')
    const ws = new Impl(options.url)
    ws.binaryType = 'arraybuffer'
    socket = ws
    ws.onopen = () => {
      attempt = 0
      onState('open')
      for (const entry of queue.splice(0)) send(ws, entry)
    }
    ws.onmessage = (message: MessageEvent<unknown>) => {
      if (message.data instanceof ArrayBuffer) handleBinaryFrame(message.data)
      else handleFrame(JSON.parse(String(message.data)) as ServerFrame)
    }
    ws.onclose = (event) => {
      socket = null
      for (const resolve of inFlight.values()) resolve(DISCONNECTED)
      inFlight.clear()
      if (event.code === 4401) {
        if (!stopped) stop('this page needs the address printed by "hotaru serve", with its token')
        return
      }
      if (stopped) return
      attempt++
      setTimeout(connect, backoff(attempt))
      onState('reconnecting', 'the Hotaru server is not reachable (stopped, or the machine is asleep)')
    }
  }

  const handleFrame = (frame: ServerFrame): void => {
    if (frame.type === 'result') {
      if (typeof frame.id !== 'number') return
      inFlight.get(frame.id)?.(frame.result)
      inFlight.delete(frame.id)
    } else if (frame.type === 'event') {
      const { channel, type: _type, ...envelope } = frame
      for (const listener of listeners.get(channel) ?? []) listener(envelope)
    } else if (frame.type === 'error') {
      stop(frame.error.data.message)
    }
  }

  /** Terminal output: its bytes go to the `pty:data` listeners as they are, for xterm to decode. */
  const handleBinaryFrame = (data: ArrayBuffer): void => {
    let frame: ReturnType<typeof decodePtyFrame>
    try {
      frame = decodePtyFrame(data)
    } catch (error) {
      console.error('[ipc] dropped a binary frame:', (error as Error).message)
      return
    }
    const { projectId, seq, id, offset, chars } = frame.header
    const payload: TerminalOutput = { id, data: frame.bytes, offset, chars }
    for (const listener of listeners.get('pty:data') ?? []) listener({ ...(projectId ? { projectId } : {}), seq, payload })
  }

  const call = (method: string, input: unknown): Promise<IpcResult<unknown>> =>
    new Promise((resolve) => {
      if (stopped) {
        resolve({ ok: false, error: { name: 'Unauthorized', data: { message: 'not connected: the page has no valid token' } } })
        return
      }
      const entry = { id: nextId++, message: '', resolve }
      entry.message = JSON.stringify({ id: entry.id, method, input: input ?? {} })
      if (socket?.readyState === Impl.OPEN) send(socket, entry)
      else queue.push(entry)
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

/** The bridge over the WebSocket of the page's own server. */
export function createWebSocketBridge(token: string | null, onState: (state: ConnectionState, detail?: string) => void): HotaruBridge {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws'
  if (!token) {
    // Without a token the server refuses the socket: say so at once instead of retrying.
    queueMicrotask(() => onState('unauthorized', 'this page needs the address printed by "hotaru serve", with its token'))
  }
  return createSocketBridge({ url: `${scheme}://${window.location.host}/ws?token=${encodeURIComponent(token ?? '')}`, onState })
}
