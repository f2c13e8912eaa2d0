import { spawn } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { oauthSecretKey } from '../../../src/main/core/mcp'
import { type HttpFixture, startHttpFixture, type HttpFixtureOptions } from '../../fixtures/mcp-server/http-app'
import { TINY_PNG_BASE64 } from '../../fixtures/mcp-server/server'
import { tempDir } from '../../support/temp'
import { createManager, HTTP_FIXTURE, MemorySecretStore, TSX_LOADER, waitFor } from './helpers'

const fixtures: HttpFixture[] = []

async function fixture(options: HttpFixtureOptions = {}): Promise<HttpFixture> {
  const started = await startHttpFixture(options)
  fixtures.push(started)
  return started
}

afterEach(async () => {
  for (const started of fixtures.splice(0)) await started.close()
})

describe('remote MCP servers', () => {
  it('connects over streamable HTTP, calls tools and follows list_changed', async () => {
    const server = await fixture()
    let changes = 0
    const manager = createManager({ servers: { web: { type: 'remote', url: server.url } }, projectRoot: tempDir(), onToolsChanged: () => changes++ })
    await manager.start()
    expect(manager.status('web')).toMatchObject({ state: 'connected', transport: 'streamable-http', type: 'remote', toolCount: 9 })
    expect(await manager.callTool('web__add', { a: 1, b: 2 })).toEqual({ output: '3', isError: false })
    expect(await manager.callTool('web__image', {})).toEqual({
      output: [
        { type: 'text', text: 'a red pixel' },
        { type: 'image', mediaType: 'image/png', data: TINY_PNG_BASE64 },
      ],
      isError: false,
    })
    const before = changes
    await manager.callTool('web__add_tool', {})
    await waitFor(() => manager.listTools().some((t) => t.name === 'web__dynamic_1'), 5_000, 'the new tool')
    expect(changes).toBeGreaterThan(before)
  })

  it('runs as its own process (http.ts prints its URL) for other tests and manual checks', async () => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, HTTP_FIXTURE, '--sse-only'], { stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        let out = ''
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString()
          const line = out.split('\n')[0]
          if (out.includes('\n') && line) resolveUrl(line)
        })
        child.once('exit', (code) => reject(new Error(`http.ts exited with ${code}`)))
      })
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
      const manager = createManager({ servers: { proc: { type: 'remote', url } }, projectRoot: tempDir() })
      await manager.start()
      expect(manager.status('proc')).toMatchObject({ state: 'connected', transport: 'sse' })
      await manager.dispose()
    } finally {
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGTERM')
      await exited
    }
  })

  it('falls back to SSE for servers that only speak the older transport', async () => {
    const server = await fixture({ sseOnly: true })
    const manager = createManager({ servers: { legacy: { type: 'remote', url: server.url } }, projectRoot: tempDir() })
    await manager.start()
    expect(manager.status('legacy')).toMatchObject({ state: 'connected', transport: 'sse' })
    expect(await manager.callTool('legacy__echo', { text: 'over sse' })).toEqual({ output: 'over sse', isError: false })
  })

  it('sends configured headers', async () => {
    const server = await fixture({ requireHeader: { name: 'X-Api-Key', value: 'secret-1' } })
    const manager = createManager({
      servers: {
        keyed: { type: 'remote', url: server.url, headers: { 'X-Api-Key': 'secret-1' } },
        unkeyed: { type: 'remote', url: server.url },
      },
      projectRoot: tempDir(),
    })
    await manager.start()
    expect(manager.status('keyed').state).toBe('connected')
    expect(manager.status('unkeyed')).toMatchObject({ state: 'failed' })
    expect(manager.status('unkeyed').error).toContain('HTTP 401')
  })

  it('fails with a readable reason when the server cannot be reached', async () => {
    const server = await fixture()
    const url = server.url
    await server.close()
    fixtures.pop()
    const manager = createManager({ servers: { gone: { type: 'remote', url } }, projectRoot: tempDir() })
    await manager.start()
    expect(manager.status('gone')).toMatchObject({ state: 'failed', error: 'cannot reach the server (ECONNREFUSED)' })
  })

  it('notices a remote server that went away, retries, and reconnects once it is back', async () => {
    const first = await fixture()
    const port = Number(new URL(first.url).port)
    const manager = createManager({ servers: { web: { type: 'remote', url: first.url } }, projectRoot: tempDir() })
    await manager.start()
    await first.close()
    fixtures.splice(fixtures.indexOf(first), 1)

    const call = await manager.callTool('web__echo', { text: 'anyone?' })
    expect(call).toMatchObject({ isError: true, output: expect.stringContaining('cannot reach the server (') })
    await waitFor(() => manager.status('web').error?.includes('gave up') === true, 10_000, 'the restart budget to run out')
    expect(manager.status('web')).toMatchObject({ state: 'failed', restarts: 3 })
    expect(manager.status('web').error).toContain('cannot reach the server')

    await fixture({ port })
    expect(await manager.restart('web')).toMatchObject({ state: 'connected', restarts: 0 })
    expect(await manager.callTool('web__echo', { text: 'back' })).toEqual({ output: 'back', isError: false })
  })

  it('signs in with OAuth (PKCE, loopback redirect), keeps the tokens and refreshes them', async () => {
    const server = await fixture({ oauth: true })
    const secrets = new MemorySecretStore()
    const opened: string[] = []
    const manager = createManager({
      servers: { secure: { type: 'remote', url: server.url } },
      projectRoot: tempDir(),
      secrets,
      // The "browser": follows the authorization redirect back to the loopback listener.
      openUrl: (url) => {
        opened.push(url.href)
        fetch(url).catch((error: unknown) => opened.push(`failed: ${String(error)}`))
      },
    })
    await manager.start()
    // Project open never opens a browser: the server waits for the user to sign in.
    expect(manager.status('secure')).toMatchObject({ state: 'failed', needsAuth: true })
    expect(manager.status('secure').error).toBe('sign-in required (OAuth): not signed in to this server yet')
    expect(opened).toEqual([])
    expect(server.auth?.stats.registrations).toBe(0)

    const status = await manager.authenticate('secure')
    expect(status).toMatchObject({ state: 'connected', transport: 'streamable-http' })
    expect(opened).toHaveLength(1)
    const authorize = new URL(opened[0] as string)
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)
    expect(server.auth?.stats).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 })
    const stored = JSON.parse(secrets.values.get(oauthSecretKey(server.url)) as string) as { tokens: { refresh_token: string } }
    expect(stored.tokens.refresh_token).toMatch(/^rt-/)

    // Expired access token: the next call refreshes it without a browser.
    server.auth?.expireAccessTokens()
    expect(await manager.callTool('secure__echo', { text: 'after refresh' })).toEqual({ output: 'after refresh', isError: false })
    expect(server.auth?.stats.refreshes).toBe(1)

    // A new project (manager) reuses the stored sign-in.
    const other = createManager({ servers: { secure: { type: 'remote', url: server.url } }, projectRoot: tempDir(), secrets })
    await other.start()
    expect(other.status('secure').state).toBe('connected')
    expect(opened).toHaveLength(1)
  })

  it('marks a server that needs OAuth as failed when there is no secret store', async () => {
    const server = await fixture({ oauth: true })
    const manager = createManager({ servers: { secure: { type: 'remote', url: server.url } }, projectRoot: tempDir() })
    await manager.start()
    expect(manager.status('secure').state).toBe('failed')
    expect(manager.status('secure').error).toContain('HTTP 401')
    await expect(manager.authenticate('secure')).rejects.toThrow('no secret store')
  })
})
