import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { EventEnvelope } from '@shared/ipc'
import { encodePtyFrame } from '@shared/ipc/pty-frame'
import type { TerminalData } from '@shared/schema/terminal'
import type { Services } from '../core/services'
import { Connection, type Router } from '../ipc'
import { CallMessage, CLOSE_UNAUTHORIZED, type ServerMessage } from './protocol'
import { createStaticHandler } from './static'
import { PreviewProxy } from './preview-proxy'
import { detached } from '../core/util/detached'

export interface ServeOptions {
  services: Services
  router: Router
  rendererDir: string
  host?: string
  port?: number
  /** Binding to a non-loopback address must be asked for explicitly. */
  allowRemote?: boolean
  /** Fixed token (tests); a random one is generated otherwise. */
  token?: string
}

export interface RunningServer {
  url: string
  port: number
  host: string
  token: string
  close(): Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])
/** A prompt carries its images as base64: the composer keeps a message under 64 MB of them. */
const MAX_MESSAGE_BYTES = 96 * 1024 * 1024

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host)
}

function sameToken(expected: string, given: string | null): boolean {
  if (!given) return false
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}

function rejectUpgrade(socket: Duplex, status: number, name: string, message: string): void {
  const body = JSON.stringify({ name, data: { message } })
  socket.end(
    `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Bad Request'}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

/**
 * `hotaru serve`: the renderer over http and the IPC handlers over a WebSocket,
 * on loopback. Every socket must present the per-start token; other origins and
 * foreign Host headers (DNS rebinding) are refused.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  if (!isLoopbackHost(host) && !options.allowRemote) {
    throw new HotaruError(ErrorNames.Forbidden, {
      message: `refusing to listen on non-loopback address ${host}; pass --allow-remote to do so deliberately`,
    })
  }
  const token = options.token ?? randomBytes(16).toString('hex')
  let port = 0
  const urlHost = host.includes(':') ? `[${host}]` : host
  const allowedHosts = (): Set<string> =>
    new Set([`${urlHost}:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
  const allowedOrigins = (): Set<string> => new Set([...allowedHosts()].map((h) => `http://${h}`))

  const preview = new PreviewProxy(() => port, () => [...allowedOrigins()])
  const serveStatic = createStaticHandler(options.rendererDir, () => `ws://${urlHost}:${port}`, () => preview.frameSource())
  const server = createServer((req, res) => {
    const previewPort = preview.targetPort(req.headers.host)
    if (previewPort !== null) {
      preview.handle(req, res, previewPort)
      return
    }
    if (!allowedHosts().has(req.headers.host ?? '') && isLoopbackHost(host)) {
      res.writeHead(421, { 'Content-Type': 'text/plain' }).end('unexpected Host header')
      return
    }
    detached('serve static file', serveStatic(req, res), () => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' })
      res.end()
    })
  })

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })
  const connections = new Set<Connection>()
  let nextConnection = 1
  const events = options.services.bus.subscribe((event) => {
    for (const connection of connections) connection.offer(event)
  })

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const previewPort = preview.targetPort(req.headers.host)
    if (previewPort !== null) return preview.upgrade(req, socket, head, previewPort)
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname !== '/ws') return rejectUpgrade(socket, 400, ErrorNames.NotFound, 'unknown endpoint')
    const origin = req.headers.origin
    if (origin !== undefined && !allowedOrigins().has(origin)) {
      return rejectUpgrade(socket, 403, ErrorNames.Forbidden, `origin ${origin} is not allowed`)
    }
    if (isLoopbackHost(host) && !allowedHosts().has(req.headers.host ?? '')) {
      return rejectUpgrade(socket, 403, ErrorNames.Forbidden, 'unexpected Host header')
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (!sameToken(token, url.searchParams.get('token'))) {
        send(ws, {
          type: 'error',
          error: { name: ErrorNames.Unauthorized, data: { message: 'missing or wrong token; use the URL printed by hotaru serve' } },
        })
        ws.close(CLOSE_UNAUTHORIZED, 'Unauthorized')
        return
      }
      attach(ws)
    })
  })

  function attach(ws: WebSocket): void {
    const connection = new Connection(`ws-${nextConnection++}`, (event) => {
      if (event.channel === 'pty:data') sendTerminalOutput(ws, event.envelope)
      else send(ws, { type: 'event', channel: event.channel, ...event.envelope })
    })
    connection.preview = preview.surface
    connections.add(connection)
    ws.on('close', () => connections.delete(connection))
    ws.on('error', (error) => console.error(`[serve] ${connection.id}:`, error.message))
    ws.on('message', (data, isBinary) => {
      detached(`serve ${connection.id} message`, onMessage(connection, ws, isBinary ? null : data.toString()))
    })
  }

  async function onMessage(connection: Connection, ws: WebSocket, text: string | null): Promise<void> {
    let raw: unknown
    try {
      raw = text === null ? undefined : JSON.parse(text)
    } catch {
      raw = undefined
    }
    const call = CallMessage.safeParse(raw)
    if (!call.success) {
      const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined
      send(ws, {
        type: 'result',
        id: typeof id === 'number' || typeof id === 'string' ? id : null,
        result: {
          ok: false,
          error: { name: ErrorNames.InvalidPayload, data: { message: 'expected {"id", "method", "input"} as JSON text' } },
        },
      })
      return
    }
    const result = await options.router.handle(connection, call.data.method, call.data.input)
    send(ws, { type: 'result', id: call.data.id, result })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port

  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    port,
    host,
    token,
    async close() {
      events.dispose()
      for (const client of wss.clients) client.terminate()
      wss.close()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
  }
}

/** Terminal output goes as a binary frame (see `pty-frame.ts`), on the same socket, so it keeps its order with everything else. */
function sendTerminalOutput(ws: WebSocket, envelope: EventEnvelope<TerminalData>): void {
  if (ws.readyState !== ws.OPEN) return
  const { id, data, offset } = envelope.payload
  const header = { ...(envelope.projectId ? { projectId: envelope.projectId } : {}), seq: envelope.seq, id, offset, chars: data.length }
  ws.send(encodePtyFrame(header, data), { binary: true })
}

function send(ws: WebSocket, message: ServerMessage): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message))
}
