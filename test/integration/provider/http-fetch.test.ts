import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, gzipSync, zstdCompressSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { httpFetch } from '../../../src/main/core/provider/http-fetch'

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A server on loopback; `connections` counts the TCP connections it accepted. */
async function serve(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<{ url: string; connections: () => number }> {
  let connections = 0
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => handler(req, body, res))
  })
  server.on('connection', () => connections++)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections }
}

async function readAll(body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null): Promise<string> {
  let text = ''
  for await (const chunk of body as AsyncIterable<Uint8Array>) text += Buffer.from(chunk).toString('utf8')
  return text
}

describe('the fetch the provider SDKs send with', () => {
  it('sends the method, headers and body, and reuses one connection for requests one after another', async () => {
    const { url, connections } = await serve((req, body, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ method: req.method, key: req.headers['x-api-key'], length: req.headers['content-length'], body }))
    })
    for (let i = 0; i < 3; i++) {
      const response = await httpFetch(`${url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'k1' }, body: '{"n":"ü"}' })
      expect(response.status).toBe(200)
      expect(response.ok).toBe(true)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(await response.json()).toEqual({ method: 'POST', key: 'k1', length: '10', body: '{"n":"ü"}' })
    }
    expect(connections()).toBe(1)
  })

  it('decodes gzip, brotli and zstd bodies', async () => {
    const text = JSON.stringify({ answer: 'x'.repeat(2000) })
    const { url } = await serve((req, _body, res) => {
      const coding = req.url?.slice(1) ?? ''
      res.setHeader('content-encoding', coding)
      res.end(coding === 'gzip' ? gzipSync(text) : coding === 'br' ? brotliCompressSync(text) : zstdCompressSync(text))
    })
    for (const coding of ['gzip', 'br', 'zstd']) expect(await (await httpFetch(`${url}/${coding}`)).text()).toBe(text)
  })

  it('streams the body as it arrives, and a body that breaks off errors with "terminated" and the socket error as cause', async () => {
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: one\n\n')
      setTimeout(() => res.socket?.destroy(), 50)
    })
    const response = await httpFetch(url)
    const iterator = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
    expect(Buffer.from((await iterator.next()).value as Uint8Array).toString()).toBe('data: one\n\n')
    const error = (await iterator.next().catch((e: unknown) => e)) as TypeError
    expect(error).toBeInstanceOf(TypeError)
    expect(error.message).toBe('terminated')
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNRESET')
  })

  it("rejects with the abort signal's reason, before the answer and while its body is read", async () => {
    const { url } = await serve((req, _body, res) => {
      if (req.url === '/slow') return
      res.writeHead(200)
      res.write('part')
    })
    const before = new AbortController()
    const pending = httpFetch(`${url}/slow`, { signal: before.signal })
    setTimeout(() => before.abort(new Error('no data for 10 ms')), 20)
    await expect(pending).rejects.toThrow('no data for 10 ms')

    const during = new AbortController()
    const response = await httpFetch(`${url}/body`, { signal: during.signal })
    const reading = readAll(response.body)
    setTimeout(() => during.abort(), 20)
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('rejects an unreachable server with "fetch failed" and the socket error as cause', async () => {
    const { url } = await serve(() => undefined)
    servers[0]?.close()
    servers.splice(0)
    const error = (await httpFetch(url).catch((e: unknown) => e)) as TypeError
    expect(error.message).toBe('fetch failed')
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED')
  })

  it('follows a redirect with the same method and body, and gives a 204 no body', async () => {
    const { url } = await serve((req, body, res) => {
      if (req.url === '/old') {
        res.writeHead(307, { location: '/new' }).end()
        return
      }
      if (req.url === '/empty') {
        res.writeHead(204).end()
        return
      }
      res.end(`${req.method} ${req.url} ${body}`)
    })
    expect(await (await httpFetch(`${url}/old`, { method: 'POST', body: 'payload' })).text()).toBe('POST /new payload')
    const empty = await httpFetch(`${url}/empty`)
    expect(empty.status).toBe(204)
    expect(empty.body).toBeNull()
  })

  it('sends what it does not handle itself (a form upload) through the platform fetch', async () => {
    const { url } = await serve((req, body, res) => res.end(`${String(req.headers['content-type']).split(';')[0]} ${body.includes('name="file"')}`))
    const form = new FormData()
    form.append('file', new Blob(['data']), 'a.txt')
    expect(await (await httpFetch(url, { method: 'POST', body: form })).text()).toBe('multipart/form-data true')
  })
})
