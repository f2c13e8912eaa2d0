import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect, type Socket } from 'node:net'
import { detached } from '../util/detached'

/** Decides a host that is not on the allowlist (a permission ask where one is possible); false blocks it. */
export type DomainDecider = (host: string) => Promise<boolean>

export interface DomainProxy {
  /** The loopback port it listens on (macOS). */
  port?: number
  /** Serves a connection handed over from inside the sandbox (Linux: the relay passes each one out). */
  accept(socket: Socket): void
  /** Hosts refused so far, in order. */
  readonly blocked: string[]
  close(): Promise<void>
}

/** `example.com` matches itself; `*.example.com` matches its subdomains (not itself). */
export function domainAllowed(host: string, allowedDomains: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '')
  return allowedDomains.some((d) => (d.startsWith('*.') ? h.endsWith(d.slice(1)) : h === d))
}

function splitHostPort(value: string, defaultPort: number): { host: string; port: number } | undefined {
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(value)
  if (!match?.[1]) return undefined
  return { host: match[1], port: match[2] ? Number(match[2]) : defaultPort }
}

const REFUSED = 'blocked by the sandbox: this host is not in sandbox.network.allowedDomains\n'

/**
 * A small HTTP proxy (CONNECT for TLS, absolute-URL requests for plain HTTP) that lets
 * a sandboxed command reach only allowed hosts. On Linux it listens nowhere: the relay
 * inside the sandbox (whose network namespace has nothing else) hands each connection
 * out over its IPC channel to `accept`; on macOS it listens on a loopback port the
 * Seatbelt profile allows.
 */
export async function startDomainProxy(options: {
  listen?: { port: 0 }
  allowedDomains: readonly string[]
  decide: DomainDecider
}): Promise<DomainProxy> {
  const blocked: string[] = []
  const decided = new Map<string, Promise<boolean>>()
  const check = (host: string): Promise<boolean> => {
    if (domainAllowed(host, options.allowedDomains)) return Promise.resolve(true)
    let pending = decided.get(host)
    if (!pending) {
      pending = options.decide(host).then(
        (ok) => {
          if (!ok) blocked.push(host)
          return ok
        },
        (error: unknown) => {
          blocked.push(host)
          console.warn(`[sandbox] network decision for ${host} failed: ${(error as Error).message}`)
          return false
        },
      )
      decided.set(host, pending)
    }
    return pending
  }
  const sockets = new Set<Socket>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let target: URL
    try {
      target = new URL(req.url ?? '')
    } catch {
      res.writeHead(400).end('expected an absolute URL (a proxy request)\n')
      return
    }
    detached('sandbox proxy request', check(target.hostname).then((ok) => {
      if (!ok) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end(REFUSED)
        return
      }
      const upstream = request(
        { host: target.hostname, port: target.port || 80, method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers)
          up.pipe(res)
        },
      )
      upstream.on('error', (error) => res.writeHead(502).end(`proxy: ${error.message}\n`))
      req.pipe(upstream)
    }), () => res.writeHead(502).end('proxy: the domain check failed\n'))
  })
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client)
    client.on('close', () => sockets.delete(client))
    client.on('error', () => client.destroy())
    const target = splitHostPort(req.url ?? '', 443)
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n')
      return
    }
    detached('sandbox proxy tunnel', check(target.host).then((ok) => {
      if (!ok) {
        client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${REFUSED.length}\r\n\r\n${REFUSED}`)
        return
      }
      const upstream = connect(target.port, target.host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        if (head.length > 0) upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      })
      sockets.add(upstream)
      upstream.on('close', () => sockets.delete(upstream))
      upstream.on('error', (error) => client.end(`HTTP/1.1 502 Bad Gateway\r\n\r\nproxy: ${error.message}\n`))
    }), () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'))
  })
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  if (options.listen) {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', resolve)
    })
  }
  const address = server.address()
  let closed = false
  return {
    ...(typeof address === 'object' && address ? { port: address.port } : {}),
    blocked,
    accept: (socket) => {
      if (closed) {
        socket.destroy()
        return
      }
      server.emit('connection', socket)
      socket.resume()
    },
    close: () =>
      new Promise<void>((resolve) => {
        closed = true
        for (const socket of sockets) socket.destroy()
        if (server.listening) server.close(() => resolve())
        else resolve()
      }),
  }
}
