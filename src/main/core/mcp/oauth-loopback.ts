import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

const CALLBACK_PATH = '/callback'

/**
 * The loopback redirect of a native-app OAuth sign-in (RFC 8252): a one-shot HTTP
 * server on 127.0.0.1 that receives `?code=…&state=…` from the browser. It tries
 * the port of an earlier registration first, since the registration names it.
 */
export class LoopbackRedirect {
  private waiter: { resolve(code: string): void; reject(error: Error): void } | undefined
  private result: { code: string } | { error: Error } | undefined

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly expectedState: () => string | undefined,
  ) {}

  /** `expectedState` is asked when the browser arrives: the state is made only when the sign-in starts. */
  static async listen(preferredUrl: string | undefined, expectedState: () => string | undefined): Promise<LoopbackRedirect> {
    const preferredPort = portOf(preferredUrl)
    let server: Server
    try {
      server = await bind(preferredPort ?? 0)
    } catch (error) {
      // The earlier port is taken now: a new one means a new registration, which is fine.
      if (preferredPort === undefined || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
      server = await bind(0)
    }
    const port = (server.address() as AddressInfo).port
    const loopback = new LoopbackRedirect(server, `http://127.0.0.1:${port}${CALLBACK_PATH}`, expectedState)
    server.on('request', (req, res) => loopback.onRequest(req, res))
    return loopback
  }

  /** The authorization code, once the browser comes back with it and the right `state`. */
  waitForCode(timeoutMs: number, signal?: AbortSignal): Promise<string> {
    if (this.result) return 'code' in this.result ? Promise.resolve(this.result.code) : Promise.reject(this.result.error)
    if (signal?.aborted) return Promise.reject(new Error('the sign-in was cancelled'))
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no sign-in within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs)
      const onAbort = (): void => finish(new Error('the sign-in was cancelled'))
      const finish = (outcome: string | Error): void => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        this.waiter = undefined
        if (typeof outcome === 'string') resolve(outcome)
        else reject(outcome)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.waiter = { resolve: finish, reject: finish }
    })
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())))
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    const error = url.searchParams.get('error')
    const code = url.searchParams.get('code')
    const state = url.searchParams.get('state') ?? undefined
    const expected = this.expectedState()
    if (expected === undefined || state !== expected) {
      // Not the sign-in we started (a stale tab, or a forged request): refuse it and keep waiting.
      page(res, 400, 'This sign-in link does not belong to the current request. Start the sign-in again from Hotaru.')
      return
    }
    if (error) {
      const description = url.searchParams.get('error_description')
      this.settle({ error: new Error(`the server refused the sign-in: ${error}${description ? ` (${description})` : ''}`) })
      page(res, 400, `Sign-in failed: ${error}. You can close this tab.`)
      return
    }
    if (!code) {
      page(res, 400, 'The sign-in response has no authorization code.')
      return
    }
    this.settle({ code })
    page(res, 200, 'Hotaru is signed in. You can close this tab and return to the app.')
  }

  private settle(result: { code: string } | { error: Error }): void {
    this.result = result
    const waiter = this.waiter
    if (!waiter) return
    if ('code' in result) waiter.resolve(result.code)
    else waiter.reject(result.error)
  }
}

function portOf(url: string | undefined): number | undefined {
  if (!url) return undefined
  const port = Number(new URL(url).port)
  return Number.isInteger(port) && port > 0 ? port : undefined
}

function bind(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve(server)
    })
  })
}

function page(res: ServerResponse, status: number, message: string): void {
  const escaped = message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)
  res
    .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    .end(`<!doctype html><meta charset="utf-8"><title>Hotaru</title><p style="font-family:sans-serif">${escaped}</p>`)
}
