import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Readable, Transform } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib'

/**
 * The `fetch` the provider SDKs are given: a request over `node:http`/`node:https` whose response body is the
 * socket's own stream. Node's global `fetch` (undici) runs every request and every chunk of a streamed answer
 * through its WHATWG machinery (request and response objects, web streams); over the 12 requests of `bench:loop`'s
 * small task that cost about 110–150 ms of wall time on two cores.
 *
 * What it does not do itself goes to the global `fetch` unchanged, so behaviour there stays the platform's:
 * `Request` objects, bodies other than text or bytes (uploads), `redirect` other than the default, an environment
 * proxy, and redirects (the request is sent again through `fetch`, which follows them). Otherwise it keeps
 * `fetch`'s contract where callers can tell: it rejects with `TypeError('fetch failed')` (cause: the socket error),
 * a body that breaks off errors with `TypeError('terminated')`, an abort rejects (or errors the body) with the
 * signal's reason, and gzip, deflate, brotli and zstd bodies are decoded. The response offers what the SDKs read:
 * `status`, `statusText`, `ok`, `headers`, `url`, `body` (async-iterable bytes), `text()`, `json()`, `arrayBuffer()`.
 */
export const httpFetch = ((input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const url = typeof input === 'string' ? (URL.canParse(input) ? new URL(input) : undefined) : input instanceof URL ? input : undefined
  if (!url || !handlesItself(url, init)) return fetch(input, init)
  return send(url, init ?? {}).then(async (sent) => {
    if (sent.redirect) {
      sent.response.cancel()
      return fetch(input, init)
    }
    return sent.response as unknown as Response
  })
}) as typeof fetch

const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) }
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy']
const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** Statuses whose response has no body (`fetch` gives them a null body). */
const NULL_BODY = new Set([101, 103, 204, 205, 304])

function handlesItself(url: URL, init: RequestInit | undefined): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  if (init?.redirect !== undefined && init.redirect !== 'follow') return false
  const body = init?.body
  if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array) && !(body instanceof ArrayBuffer)) return false
  return !PROXY_VARIABLES.some((name) => process.env[name])
}

function send(url: URL, init: RequestInit): Promise<{ response: HttpResponse; redirect: boolean }> {
  const signal = init.signal ?? undefined
  if (signal?.aborted) return Promise.reject(abortReason(signal))
  const headers: Record<string, string> = {}
  new Headers(init.headers).forEach((value, key) => {
    headers[key] = value
  })
  const raw = init.body
  const body = raw === undefined || raw === null ? undefined : typeof raw === 'string' ? Buffer.from(raw) : raw instanceof ArrayBuffer ? Buffer.from(raw) : Buffer.from(raw as Uint8Array)
  if (body && headers['content-length'] === undefined) headers['content-length'] = String(body.length)
  const method = (init.method ?? 'GET').toUpperCase()
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: agents[url.protocol as 'http:' | 'https:'] })
    const onAbort = (): void => {
      req.destroy(abortReason(signal as AbortSignal) as Error)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    // Errors after the answer came (the socket breaking off) reach its body's reader instead.
    req.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort)
      reject(signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: error }))
    })
    req.once('response', (res) => {
      signal?.removeEventListener('abort', onAbort)
      try {
        const response = new HttpResponse(res, url, method, signal)
        resolve({ response, redirect: REDIRECTS.has(response.status) && res.headers.location !== undefined })
      } catch (error) {
        // A header value `Headers` refuses: the answer cannot be read.
        res.destroy()
        reject(new TypeError('fetch failed', { cause: error }))
      }
    })
    req.end(body)
  })
}

/** What `fetch` rejects with for an aborted signal: its reason, or an `AbortError` when it gave none. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
}

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
  zstd: createZstdDecompress,
}

/** The body as the server sent it, decoded per `content-encoding` (the outermost coding is listed last). */
function decoded(res: IncomingMessage): Readable {
  const codings = (res.headers['content-encoding'] ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity')
  let stream: Readable = res
  for (const coding of codings.reverse()) {
    // An unknown coding is passed on as it is, as `fetch` does.
    const decoder = DECODERS[coding]?.()
    if (!decoder) break
    const source = stream
    source.on('error', (error) => decoder.destroy(error))
    stream = source.pipe(decoder)
  }
  return stream
}

/** The part of `Response` the SDKs use, over the response's own stream. */
class HttpResponse {
  readonly status: number
  readonly statusText: string
  readonly ok: boolean
  readonly headers = new Headers()
  readonly url: string
  readonly redirected = false
  readonly type = 'basic'
  readonly body: AsyncIterable<Uint8Array> | null
  private used = false

  constructor(res: IncomingMessage, url: URL, method: string, signal: AbortSignal | undefined) {
    this.status = res.statusCode ?? 0
    this.statusText = res.statusMessage ?? ''
    this.ok = this.status >= 200 && this.status < 300
    this.url = url.href
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) this.headers.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string)
    if (NULL_BODY.has(this.status) || method === 'HEAD') {
      res.resume()
      this.body = null
      return
    }
    const stream = decoded(res)
    // An error before the body is read is kept by the stream and thrown by its iteration (see `chunks`).
    stream.on('error', () => undefined)
    // An abort while the body is read errors it with the signal's reason, as `fetch` does.
    const close = (reason?: Error): void => {
      stream.destroy(reason)
      res.destroy()
    }
    const onAbort = (): void => close(abortReason(signal as AbortSignal) as Error)
    signal?.addEventListener('abort', onAbort, { once: true })
    this.cancel = () => {
      signal?.removeEventListener('abort', onAbort)
      // A body read to its end has given its socket back to the pool; one left early closes it.
      if (!res.complete) close()
    }
    this.body = {
      [Symbol.asyncIterator]: () => {
        if (this.used) throw new TypeError('Body is unusable: Body has already been read')
        this.used = true
        return chunks(stream, signal, this.cancel)
      },
    }
  }

  /** Lets the body go unread: its socket is closed. */
  cancel: () => void = () => undefined

  get bodyUsed(): boolean {
    return this.used
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const parts: Uint8Array[] = []
    if (this.body) for await (const chunk of this.body) parts.push(chunk)
    const whole = Buffer.concat(parts)
    return whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer())
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown
  }
}

/**
 * The body's chunks. A body that breaks off errors with `TypeError('terminated')` (cause: the socket's error), an
 * aborted one with the signal's reason; one left early (the SDK cancels a stream it no longer needs) ends its socket.
 */
async function* chunks(stream: Readable, signal: AbortSignal | undefined, cancel: () => void): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    for await (const chunk of stream) yield chunk as Uint8Array
  } catch (error) {
    throw signal?.aborted ? abortReason(signal) : new TypeError('terminated', { cause: error })
  } finally {
    cancel()
  }
}
