import { net, protocol } from 'electron'
import { join, normalize, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { contentSecurityPolicy } from '@shared/csp'
import { APP_HOST, APP_SCHEME } from '../ipc/sender'

/** Must run before `app.whenReady()`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ])
}

/**
 * Serves the built renderer from `app://hotaru/` with the CSP as a header: a real
 * origin (unlike file://) that the IPC sender check can pin down.
 */
export function serveRenderer(rendererDir: string): void {
  const root = normalize(rendererDir + sep)
  const csp = contentSecurityPolicy()
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url)
    const file = normalize(join(root, url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname)))
    if (url.host !== APP_HOST || !file.startsWith(root)) return new Response('forbidden', { status: 403 })
    const response = await net.fetch(pathToFileURL(file).toString())
    const headers = new Headers(response.headers)
    headers.set('Content-Security-Policy', csp)
    headers.set('X-Content-Type-Options', 'nosniff')
    return new Response(response.body, { status: response.status, headers })
  })
}
