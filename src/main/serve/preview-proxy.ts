import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Duplex } from 'node:stream'
import type { PreviewSurface } from '../ipc/preview-surface'
import { log } from '../core/util/log'
import { previewClientScript } from './preview-client'

/** Served by the preview origin itself (never forwarded): the page's side of the pane. */
export const CLIENT_PATH = '/__hotaru_preview/client.js'
const MAX_HTML_BYTES = 16 * 1024 * 1024

interface Target {
  protocol: 'http:' | 'https:'
  hostname: string
  port: number
}

/**
 * The preview origin of `hotaru serve`: `http://p<port>.localhost:<serve port>/`
 * forwards to the dev server on loopback port `<port>`, requests and WebSockets
 * (hot reload) alike, and adds the pane's client script to HTML pages.
 *
 * Why a proxy and not an iframe of the dev server itself: the UI's CSP is written
 * when the page loads, before any dev server exists, so `frame-src` can name only
 * an origin known then (`*.localhost` on this server's port), not one per server.
 * Each dev server still gets an origin of its own (the host name differs), apart
 * from the UI's: the page cannot read the UI, its token or its WebSocket (whose
 * Origin check refuses it). Only ports a client opened through `preview.open` are
 * forwarded, so the origin is no way into other loopback services.
 */
export class PreviewProxy {
  private readonly targets = new Map<number, Target>()

  constructor(
    private readonly servePort: () => number,
    private readonly uiOrigins: () => string[],
  ) {}

  /** The CSP source that lets the UI frame preview pages, and nothing else. */
  frameSource(): string {
    return `http://*.localhost:${this.servePort()}`
  }

  /** The dev-server port a request's Host names, when it is a preview host of a known target. */
  targetPort(host: string | undefined): number | null {
    const match = /^p(\d{1,5})\.localhost:(\d{1,5})$/.exec(host ?? '')
    if (!match || Number(match[2]) !== this.servePort()) return null
    const port = Number(match[1])
    return this.targets.has(port) ? port : null
  }

  /** The surface every `serve` client shows previews on. */
  readonly surface: PreviewSurface = {
    open: async (_projectId, url) => {
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
      this.targets.set(port, { protocol: url.protocol === 'https:' ? 'https:' : 'http:', hostname: url.hostname.replace(/^\[|\]$/g, ''), port })
      return `http://p${port}.localhost:${this.servePort()}${url.pathname}${url.search}${url.hash}`
    },
    // The iframe sits in the page's own layout; its history is driven through the client script.
    bounds: () => undefined,
    go: () => undefined,
    close: () => undefined,
  }

  handle(req: IncomingMessage, res: ServerResponse, port: number): void {
    try {
      this.forward(req, res, port)
    } catch (error) {
      // A request Node refuses to send (a malformed header) fails alone, not the server.
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' })
      res.end(`preview proxy: ${(error as Error).message}`)
    }
  }

  private forward(req: IncomingMessage, res: ServerResponse, port: number): void {
    const target = this.targets.get(port)
    if (!target) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not a preview')
      return
    }
    if (req.url === CLIENT_PATH) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' })
      res.end(previewClientScript(this.uiOrigins()))
      return
    }
    const upstream = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: this.forwardHeaders(req.headers, target, port),
        // The user's own server on loopback, often with a self-signed certificate.
        rejectUnauthorized: false,
      },
      (answer) => this.respond(answer, res, target, port),
    )
    upstream.on('error', (error) => {
      if (res.headersSent) {
        res.destroy(error)
        return
      }
      res.writeHead(502, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
      res.end(unreachablePage(target, error.message))
    })
    req.pipe(upstream)
  }

  /** A WebSocket of the page (Vite's or Next's hot reload) goes through to the dev server. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, port: number): void {
    try {
      this.forwardUpgrade(req, socket, head, port)
    } catch (error) {
      // Same as a refused upstream: the page's socket closes and its client retries or reports it.
      log.warn(`[preview] WebSocket not forwarded: ${(error as Error).message}`)
      socket.destroy()
    }
  }

  private forwardUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, port: number): void {
    const target = this.targets.get(port)
    if (!target) {
      socket.destroy()
      return
    }
    const upstream = (target.protocol === 'https:' ? httpsRequest : httpRequest)({
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: this.forwardHeaders(req.headers, target, port),
      rejectUnauthorized: false,
    })
    upstream.on('upgrade', (answer, upstreamSocket, upstreamHead) => {
      const lines = [`HTTP/1.1 101 ${answer.statusMessage ?? 'Switching Protocols'}`]
      for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`)
      socket.write(`${lines.join('\r\n')}\r\n\r\n`)
      if (upstreamHead.length > 0) socket.write(upstreamHead)
      if (head.length > 0) upstreamSocket.write(head)
      upstreamSocket.pipe(socket).pipe(upstreamSocket)
      upstreamSocket.on('error', () => socket.destroy())
      socket.on('error', () => upstreamSocket.destroy())
    })
    upstream.on('response', (answer) => {
      socket.end(`HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}\r\nConnection: close\r\n\r\n`)
      answer.resume()
    })
    upstream.on('error', () => socket.destroy())
    upstream.end()
  }

  private previewOrigin(port: number): string {
    return `http://p${port}.localhost:${this.servePort()}`
  }

  /** The dev server sees requests as if the page were its own (Host, Origin, Referer); it sends plain bodies. */
  private forwardHeaders(headers: IncomingHttpHeaders, target: Target, port: number): IncomingHttpHeaders {
    const own = `${target.protocol}//${hostOf(target)}`
    const rewrite = (value: string | undefined): string | undefined =>
      value?.startsWith(this.previewOrigin(port)) ? own + value.slice(this.previewOrigin(port).length) : value
    const forwarded: IncomingHttpHeaders = { ...headers, host: hostOf(target), 'accept-encoding': 'identity' }
    const origin = rewrite(headers.origin)
    const referer = rewrite(headers.referer)
    if (origin !== undefined) forwarded.origin = origin
    if (referer !== undefined) forwarded.referer = referer
    return forwarded
  }

  private respond(answer: IncomingMessage, res: ServerResponse, target: Target, port: number): void {
    const headers = { ...answer.headers }
    // The page is shown in the pane's frame: a DENY meant for other sites' frames would leave it blank.
    delete headers['x-frame-options']
    const location = headers.location
    const own = `${target.protocol}//${hostOf(target)}`
    if (location?.startsWith(own)) headers.location = this.previewOrigin(port) + location.slice(own.length)
    const html = (headers['content-type'] ?? '').includes('text/html') && !headers['content-encoding']
    if (!html) {
      res.writeHead(answer.statusCode ?? 502, headers)
      answer.pipe(res)
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    answer.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_HTML_BYTES) chunks.push(chunk)
    })
    answer.on('end', () => {
      const body = withClient(Buffer.concat(chunks).toString('utf8'))
      delete headers['content-length']
      delete headers['transfer-encoding']
      res.writeHead(answer.statusCode ?? 502, headers)
      res.end(body)
    })
    answer.on('error', (error) => res.destroy(error))
  }
}

function hostOf(target: Target): string {
  return `${target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname}:${target.port}`
}

const CLIENT_TAG = `<script src="${CLIENT_PATH}"></script>`

/** The client goes first in the head, so it sees the page's own scripts' errors. */
function withClient(html: string): string {
  const head = /<head(\s[^>]*)?>/i.exec(html)
  if (head) return html.slice(0, head.index + head[0].length) + CLIENT_TAG + html.slice(head.index + head[0].length)
  return CLIENT_TAG + html
}

function unreachablePage(target: Target, reason: string): string {
  const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)
  return `<!doctype html><html><head>${CLIENT_TAG}<title>Not reachable</title></head><body style="font-family:sans-serif;padding:2em">
<h1>Nothing answers on ${escape(hostOf(target))}</h1><p>${escape(reason)}</p><p>Start the dev server, then reload.</p></body></html>`
}
