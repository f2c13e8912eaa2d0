import { describe, expect, it } from 'vitest'
import { tempDir } from '../../support/temp'
import { createManager, fixtureServer, isRunning, statusLog, waitFor } from './helpers'

describe('MCP server failures', () => {
  it('marks a crashed server failed with its exit and stderr, restarts it, and gives up after the budget', async () => {
    const { log, onStatus, states } = statusLog()
    const manager = createManager({ servers: { crashy: fixtureServer('crash') }, projectRoot: tempDir(), onStatus })
    await manager.start()
    await waitFor(() => manager.status('crashy').error?.includes('gave up') === true, 45_000, 'the restart budget to run out')

    const final = manager.status('crashy')
    expect(final).toMatchObject({ state: 'failed', restarts: 3, restartPending: false, toolCount: 0 })
    expect(final.error).toContain('the server process exited with code 3')
    expect(final.error).toContain('fixture: crashing on purpose')
    expect(final.error).toContain('gave up after 3 automatic restarts')
    // Initial start plus three automatic restarts, each connected before crashing.
    expect(states('crashy').filter((s) => s === 'connected')).toHaveLength(4)
    expect(log.filter((s) => s.restartPending).map((s) => s.restarts)).toEqual([1, 2, 3])
    expect(manager.listTools()).toEqual([])
    const call = await manager.callTool('crashy__echo', { text: 'x' })
    expect(call.isError).toBe(true)

    // A manual restart gets a fresh budget.
    const restarted = await manager.restart('crashy')
    expect(restarted).toMatchObject({ state: 'connected', restarts: 0 })
  }, 60_000)

  it('reports a server that dies during a call, then restarts it', async () => {
    const manager = createManager({ servers: { fragile: fixtureServer('crash-after-call') }, projectRoot: tempDir() })
    await manager.start()
    const firstPid = manager.status('fragile').pid
    const result = await manager.callTool('fragile__echo', { text: 'boom' })
    expect(result.isError).toBe(true)
    expect(result.output).toContain('the server process exited with code 4')
    expect(result.output).toContain('fixture: crashing while running echo')
    await waitFor(() => manager.status('fragile').state === 'connected' && manager.status('fragile').pid !== firstPid, 10_000, 'the restart')
    expect(manager.status('fragile').restarts).toBe(1)
    expect(await manager.callTool('fragile__add', { a: 1, b: 1 })).toMatchObject({ isError: true })
  }, 30_000)

  it('fails a server that never answers after its timeout, without blocking the others', async () => {
    const { log, onStatus } = statusLog()
    const manager = createManager({
      servers: { stuck: fixtureServer('hang', { timeoutMs: 4_000 }), fine: fixtureServer() },
      projectRoot: tempDir(),
      onStatus,
    })
    const started = Date.now()
    await manager.start()
    expect(Date.now() - started).toBeLessThan(8_000)

    const stuck = manager.status('stuck')
    expect(stuck.state).toBe('failed')
    expect(stuck.error).toContain('did not answer the MCP handshake within 4 s')
    expect(stuck.error).toContain('fixture: starting in hang mode')
    expect(stuck.restarts).toBe(0)
    expect(stuck.restartPending).toBe(false)
    // The healthy server was connected before the stuck one gave up.
    const connectedAt = log.findIndex((s) => s.name === 'fine' && s.state === 'connected')
    const failedAt = log.findIndex((s) => s.name === 'stuck' && s.state === 'failed')
    expect(connectedAt).toBeGreaterThanOrEqual(0)
    expect(connectedAt).toBeLessThan(failedAt)
    expect(manager.listTools().every((t) => t.server === 'fine')).toBe(true)
    expect(await manager.callTool('stuck__echo', {})).toMatchObject({
      isError: true,
      output: expect.stringContaining('MCP server "stuck" is failed: did not answer the MCP handshake'),
    })
  }, 30_000)

  it('explains a server that writes garbage to stdout', async () => {
    const manager = createManager({ servers: { noisy: fixtureServer('malformed', { timeoutMs: 30_000 }) }, projectRoot: tempDir() })
    const started = Date.now()
    await manager.start()
    // Fails soon after the garbage, not at the 30 s timeout.
    expect(Date.now() - started).toBeLessThan(10_000)
    const status = manager.status('noisy')
    expect(status.state).toBe('failed')
    expect(status.error).toMatch(/^no MCP handshake: the server writes output that is not MCP JSON-RPC\n/)
    expect(status.error).toContain('it wrote output that is not MCP JSON-RPC to stdout: "this is not json-rpc {{{"')
  })

  it('explains a command that does not exist and a missing working folder', async () => {
    const root = tempDir()
    const manager = createManager({
      servers: {
        missing: { type: 'local', command: 'hotaru-no-such-mcp-server', args: ['--x'] },
        elsewhere: fixtureServer('ok', { cwd: 'not/here' }),
      },
      projectRoot: root,
    })
    await manager.start()
    expect(manager.status('missing')).toMatchObject({ state: 'failed' })
    expect(manager.status('missing').error).toMatch(/command "hotaru-no-such-mcp-server" was not found/)
    expect(manager.status('elsewhere').error).toBe(`the working directory ${root}/not/here does not exist`)
  })

  it('leaves disabled servers alone and enables, disables and restarts on request', async () => {
    const { onStatus, states } = statusLog()
    const manager = createManager({
      servers: { off: fixtureServer('ok', { enabled: false }), user_off: fixtureServer(), on: fixtureServer() },
      disabled: ['user_off'],
      projectRoot: tempDir(),
      onStatus,
    })
    await manager.start()
    expect(manager.statuses().map((s) => [s.name, s.state])).toEqual([
      ['off', 'disabled'],
      ['on', 'connected'],
      ['user_off', 'disabled'],
    ])
    expect(manager.status('off').pid).toBeUndefined()
    expect(new Set(manager.listTools().map((t) => t.server))).toEqual(new Set(['on']))

    expect(await manager.enable('off')).toMatchObject({ state: 'connected', toolCount: 9 })
    const pid = manager.status('off').pid as number
    expect(await manager.disable('off')).toMatchObject({ state: 'disabled', toolCount: 0 })
    expect(isRunning(pid)).toBe(false)
    expect(states('off')).toEqual(['disabled', 'starting', 'connected', 'disabled'])

    const onPid = manager.status('on').pid
    expect(await manager.restart('on')).toMatchObject({ state: 'connected' })
    expect(manager.status('on').pid).not.toBe(onPid)
    await expect(manager.restart('ghost')).rejects.toThrow('no MCP server named "ghost"')
  }, 30_000)
})
