import { writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAppRouter } from '../../src/main/ipc'
import { startServer, type RunningServer } from '../../src/main/serve/server'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'
import { WsClient } from '../support/ws-client'

const servers: RunningServer[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

async function serve() {
  const services = testServices()
  const rendererDir = writeTree(tempDir(), {
    'index.html':
      '<html><head><meta http-equiv="Content-Security-Policy" content="default-src \'self\'"></head><body>ui</body></html>',
    'assets/app.js': 'console.log(1)',
  })
  const server = await startServer({ services, router: createAppRouter(services), rendererDir, port: 0 })
  servers.push(server)
  const ws = (token: string | null) => `ws://127.0.0.1:${server.port}/ws${token === null ? '' : `?token=${token}`}`
  return { services, server, ws, origin: `http://127.0.0.1:${server.port}` }
}

describe('hotaru serve transport', () => {
  it('prints a loopback URL with a random token', async () => {
    const { server } = await serve()
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}$/)
    const other = await serve()
    expect(other.server.token).not.toBe(server.token)
  })

  it('serves the UI with a CSP that allows exactly its own socket', async () => {
    const { server } = await serve()
    const res = await fetch(server.url)
    expect(res.status).toBe(200)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${server.port}`)
    expect(csp).not.toContain('unsafe-eval')
    const html = await res.text()
    expect(html).toContain(`ws://127.0.0.1:${server.port}`)
    expect((await fetch(`http://127.0.0.1:${server.port}/assets/app.js`)).status).toBe(200)
    expect((await fetch(`http://127.0.0.1:${server.port}/assets/nope.js`)).status).toBe(404)
    expect((await fetch(`http://127.0.0.1:${server.port}/%2e%2e/%2e%2e/etc/passwd`)).status).toBeGreaterThanOrEqual(403)
  })

  it('serves calls and pushes events to a client with the token', async () => {
    const { server, ws, origin } = await serve()
    const client = await WsClient.connect(ws(server.token), { Origin: origin })
    const root = writeTree(tempDir(), { 'a.txt': 'a' })
    const opened = await client.call('project.open', { path: root })
    expect(opened.ok).toBe(true)
    const event = await client.next((f) => f.type === 'event' && f.channel === 'project:opened')
    expect(event).toMatchObject({ payload: { root }, seq: expect.any(Number) })
    const info = await client.call('app.info', {})
    expect(info).toMatchObject({ ok: true, value: { transport: 'serve', capabilities: { pickFolder: false } } })
    client.close()
  })

  it('refuses a connection without the right token with a typed error, and changes nothing', async () => {
    const { server, ws, services, origin } = await serve()
    for (const token of [null, 'wrong', `${server.token}x`]) {
      const client = await WsClient.connect(ws(token), { Origin: origin })
      const frame = await client.next((f) => f.type === 'error')
      expect(frame).toMatchObject({ error: { name: 'Unauthorized' } })
      expect(await client.closed()).toBe(4401)
    }
    // A call sent the moment the socket opens is never served.
    const root = tempDir()
    const sneaky = await WsClient.connect(ws('wrong'), { Origin: origin })
    sneaky.socket.send(JSON.stringify({ id: 1, method: 'project.open', input: { path: root } }))
    await sneaky.closed()
    expect(sneaky.frames.filter((f) => f.type === 'result')).toEqual([])
    expect(services.projects.list()).toEqual([])
    expect(services.storage.projects.recent(10)).toEqual([])
  })

  it('refuses other origins and foreign Host headers', async () => {
    const { server, ws } = await serve()
    await expect(WsClient.connect(ws(server.token), { Origin: 'http://evil.example' })).rejects.toMatchObject({
      status: 403,
    })
    await expect(
      WsClient.connect(ws(server.token), { Origin: `http://127.0.0.1:${server.port}`, Host: `rebind.example:${server.port}` }),
    ).rejects.toMatchObject({ status: 403 })
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/', headers: { Host: 'rebind.example' } }, (res) => {
        res.resume()
        resolve(res.statusCode)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(421)
  })

  it('answers malformed frames and contract violations as data', async () => {
    const { server, ws, origin, services } = await serve()
    const client = await WsClient.connect(ws(server.token), { Origin: origin })
    client.socket.send('{not json')
    expect(await client.next((f) => f.type === 'result' && f.id === null)).toMatchObject({
      result: { ok: false, error: { name: 'InvalidPayload' } },
    })
    expect(await client.call('project.open', { path: 7 })).toMatchObject({ ok: false, error: { name: 'InvalidPayload' } })
    expect(await client.call('nope.nope', {})).toMatchObject({ ok: false, error: { name: 'UnknownMethod' } })
    expect(services.projects.list()).toEqual([])
    client.close()
  })

  it('will not bind a non-loopback address unless asked', async () => {
    const services = testServices()
    const rendererDir = tempDir()
    writeFileSync(join(rendererDir, 'index.html'), '')
    await expect(
      startServer({ services, router: createAppRouter(services), rendererDir, host: '0.0.0.0' }),
    ).rejects.toMatchObject({ name: 'Forbidden' })
  })
})
