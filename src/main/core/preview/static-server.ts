import { createReadStream, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { extname, join } from 'node:path'
import { isInside } from '../trust/paths'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
}

export interface StaticServer {
  readonly port: number
  close(): Promise<void>
}

/**
 * Serves a folder on 127.0.0.1 (the preview of a plain `index.html` project): files as they are on
 * disk, never cached (the page shows the latest edit on reload), `index.html` for folders, nothing
 * outside the folder. Runs no code of the project, so it needs no trust.
 */
export function startStaticServer(root: string, port: number): Promise<StaticServer> {
  const server = createServer((request, response) => {
    const pathname = decodePath(request.url ?? '/')
    if (pathname === undefined) {
      response.writeHead(400).end()
      return
    }
    let file = join(root, pathname)
    if (!isInside(root, file) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(request.method === 'GET' || request.method === 'HEAD' ? 403 : 405).end()
      return
    }
    let stat = statSync(file, { throwIfNoEntry: false })
    if (stat?.isDirectory()) {
      file = join(file, 'index.html')
      stat = statSync(file, { throwIfNoEntry: false })
    }
    if (!stat?.isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: ${pathname}`)
      return
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': stat.size,
      'cache-control': 'no-store',
    })
    if (request.method === 'HEAD') {
      response.end()
      return
    }
    const stream = createReadStream(file)
    stream.on('error', (error) => response.destroy(error))
    stream.pipe(response)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject)
      resolve({ port: addressPort(server), close: () => closeServer(server) })
    })
  })
}

function decodePath(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url, 'http://localhost').pathname)
  } catch (error) {
    if (error instanceof URIError) return undefined
    throw error
  }
}

function addressPort(server: Server): number {
  const address = server.address()
  return typeof address === 'object' && address ? address.port : 0
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()))
    server.closeAllConnections()
  })
}
