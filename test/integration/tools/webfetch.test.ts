import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { webfetchTool } from '../../../src/main/core/tools/webfetch'
import { testContext } from '../../unit/tools/context'

let server: Server
let base: string

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/page') {
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end('<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Title</h1><p>Some <b>bold</b> text and <a href="/x">a link</a>.</p><ul><li>one</li></ul></body></html>')
    } else if (req.url === '/big') {
      res.setHeader('content-type', 'text/plain')
      const chunk = 'x'.repeat(1024 * 1024)
      for (let i = 0; i < 6; i++) res.write(chunk)
      res.end()
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), 3000)
    } else if (req.url === '/json') {
      res.setHeader('content-type', 'application/json')
      res.end('{"a":1}')
    } else {
      res.statusCode = 404
      res.end('nope')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('webfetch', () => {
  it('converts HTML to markdown without scripts and styles', async () => {
    const ctx = testContext()
    const result = await runTool(webfetchTool, { url: `${base}/page` }, ctx)
    expect(result.error).toBeUndefined()
    expect(result.output).toContain('# Title')
    expect(result.output).toContain('Some **bold** text and [a link](/x).')
    expect(result.output).toMatch(/-\s+one/)
    expect(result.output).not.toContain('alert')
    expect(ctx.asks[0]).toMatchObject({ permission: 'webfetch', patterns: [`${base}/page`], always: [`${base}/*`] })
  })

  it('returns text and html formats and passes JSON through', async () => {
    const ctx = testContext()
    expect((await runTool(webfetchTool, { url: `${base}/page`, format: 'text' }, ctx)).output).toMatch(/^Title\nSome bold text and a link\./)
    expect((await runTool(webfetchTool, { url: `${base}/page`, format: 'html' }, ctx)).output).toContain('<h1>Title</h1>')
    expect((await runTool(webfetchTool, { url: `${base}/json` }, ctx)).output).toBe('{"a":1}')
  })

  it('enforces the size and time limits and reports HTTP errors', async () => {
    const ctx = testContext()
    expect((await runTool(webfetchTool, { url: `${base}/big` }, ctx)).output).toMatch(/larger than the 5242880 byte limit/)
    expect((await runTool(webfetchTool, { url: `${base}/slow`, timeout: 0.5 }, ctx)).output).toMatch(/timed out after 0.5 s/)
    expect((await runTool(webfetchTool, { url: `${base}/missing` }, ctx)).output).toMatch(/HTTP 404/)
  })

  it('accepts only http(s)', async () => {
    const ctx = testContext()
    expect((await runTool(webfetchTool, { url: 'file:///etc/passwd' }, ctx)).output).toMatch(/Only http and https/)
    expect((await runTool(webfetchTool, { url: 'not a url' }, ctx)).output).toMatch(/not a valid URL/)
  })
})
