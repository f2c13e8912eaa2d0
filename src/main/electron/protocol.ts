import { net, protocol } from 'electron'
import { pathToFileURL } from 'node:url'
import { contentSecurityPolicy } from '@shared/csp'
import { APP_SCHEME } from '../ipc/sender'
import { rendererFile } from './renderer-files'

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
  const csp = contentSecurityPolicy()
  const securityHeaders = { 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff' }
  protocol.handle(APP_SCHEME, async (request) => {
    const target = rendererFile(rendererDir, request.url)
    if (target.status !== 200) {
      return new Response(target.reason, { status: target.status, headers: { ...securityHeaders, 'Content-Type': 'text/plain' } })
    }
    const response = await net.fetch(pathToFileURL(target.file).toString())
    const headers = new Headers(response.headers)
    for (const [name, value] of Object.entries(securityHeaders)) headers.set(name, value)
    return new Response(response.body, { status: response.status, headers })
  })
}
