import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import { CSP_META_PATTERN, contentSecurityPolicy } from '@shared/csp'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
}

/** Serves the built renderer with strict headers; index.html gets the CSP for this server's socket. */
export function createStaticHandler(rendererDir: string, wsOrigin: () => string, frameSource: () => string) {
  const root = normalize(rendererDir + sep)
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end()
      return
    }
    const url = new URL(req.url ?? '/', 'http://localhost')
    let pathname: string
    try {
      pathname = decodeURIComponent(url.pathname)
    } catch {
      res.writeHead(400).end()
      return
    }
    const file = normalize(join(root, pathname === '/' ? 'index.html' : pathname))
    if (!file.startsWith(root)) {
      res.writeHead(403).end()
      return
    }
    const csp = contentSecurityPolicy([wsOrigin()], { frameSources: [frameSource()] })
    const headers: Record<string, string> = {
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cache-Control': file.endsWith('index.html') ? 'no-store' : 'public, max-age=3600',
    }
    try {
      const info = await stat(file)
      if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' })
      let body: Buffer | string = await readFile(file)
      if (file.endsWith('index.html')) {
        body = body
          .toString('utf8')
          .replace(
            CSP_META_PATTERN,
            `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy([wsOrigin()], { meta: true, frameSources: [frameSource()] })}" />`,
          )
      }
      res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' })
      res.end(req.method === 'HEAD' ? undefined : body)
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT'
      res.writeHead(missing ? 404 : 500, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' })
      res.end(missing ? 'not found' : 'error')
    }
  }
}
