import { realpathSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { mcpToolDefinitions, TOOL_NAME_PATTERN } from '../../../src/main/core/mcp'
import { TINY_PNG_BASE64 } from '../../fixtures/mcp-server/server'
import { tempDir } from '../../support/temp'
import { createManager, fixtureServer, statusLog, waitFor } from './helpers'

describe('stdio MCP servers', () => {
  it('connects, lists namespaced tools with their schemas, and calls them', async () => {
    const root = tempDir()
    const { onStatus, states } = statusLog()
    const manager = createManager({ servers: { fixture: fixtureServer() }, projectRoot: root, onStatus })
    await manager.start()

    const status = manager.status('fixture')
    expect(status).toMatchObject({ state: 'connected', transport: 'stdio', type: 'local', source: 'config', toolCount: 9 })
    expect(status.serverInfo).toEqual({ name: 'hotaru-fixture', version: '1.0.0' })
    expect(status.pid).toBeGreaterThan(0)
    expect(states('fixture')).toEqual(['starting', 'connected'])

    const tools = manager.listTools()
    const echo = tools.find((tool) => tool.name === 'fixture__echo')
    expect(echo).toMatchObject({ server: 'fixture', tool: 'echo', description: 'Returns its text argument.' })
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] })
    for (const tool of tools) expect(tool.name).toMatch(TOOL_NAME_PATTERN)
    expect(mcpToolDefinitions(manager).map((d) => d.name)).toEqual(tools.map((t) => t.name))

    expect(await manager.callTool('fixture__echo', { text: 'hello' })).toEqual({ output: 'hello', isError: false })
    expect(await manager.callTool('fixture__add', { a: 2, b: 40 })).toEqual({ output: '42', isError: false })
  })

  it('passes images through as parts and turns other content into text', async () => {
    const manager = createManager({ servers: { fixture: fixtureServer() }, projectRoot: tempDir() })
    await manager.start()
    expect(await manager.callTool('fixture__image', {})).toEqual({
      output: [
        { type: 'text', text: 'a red pixel' },
        { type: 'image', mediaType: 'image/png', data: TINY_PNG_BASE64 },
      ],
      isError: false,
    })
    const structured = await manager.callTool('fixture__structured', {})
    expect(JSON.parse(structured.output as string)).toEqual({ total: 2, items: ['a', 'b'] })
    expect(await manager.callTool('fixture__embedded', {})).toEqual({ output: '[resource fixture://notes.txt]\nembedded notes', isError: false })
    expect(await manager.callTool('fixture__fail', {})).toEqual({ output: 'this tool always fails', isError: true })
    const invalid = await manager.callTool('fixture__add', { a: 'two' })
    expect(invalid.isError).toBe(true)
    expect(await manager.callTool('nope__nothing', {})).toMatchObject({ isError: true, output: expect.stringContaining('no MCP tool named') })
  })

  it('starts servers in the project folder with the login PATH and their own env', async () => {
    const root = tempDir()
    const manager = createManager({
      servers: { fixture: fixtureServer('ok', { env: { HOTARU_FIXTURE_VALUE: 'from-config' } }) },
      projectRoot: root,
      loginShellPath: async () => ({ path: `/opt/login-shell/bin:${process.env.PATH ?? ''}`, source: 'login-shell' }),
    })
    await manager.start()
    const result = await manager.callTool('fixture__environment', {})
    const report = JSON.parse(result.output as string) as { cwd: string; value: string; path: string }
    expect(realpathSync(report.cwd)).toBe(realpathSync(root))
    expect(report.value).toBe('from-config')
    expect(report.path.split(':')[0]).toBe('/opt/login-shell/bin')
  })

  it('refreshes the tool list on notifications/tools/list_changed and tells the owner', async () => {
    let changes = 0
    const manager = createManager({ servers: { fixture: fixtureServer() }, projectRoot: tempDir(), onToolsChanged: () => changes++ })
    await manager.start()
    const before = changes
    expect(await manager.callTool('fixture__add_tool', {})).toEqual({ output: 'added dynamic_1', isError: false })
    await waitFor(() => manager.listTools().some((t) => t.name === 'fixture__dynamic_1'), 5_000, 'the new tool')
    expect(changes).toBeGreaterThan(before)
    expect(manager.status('fixture').toolCount).toBe(10)
    expect(await manager.callTool('fixture__dynamic_1', {})).toEqual({ output: 'dynamic_1 ran', isError: false })
  })

  it('lists and reads resources and prompts', async () => {
    const manager = createManager({ servers: { fixture: fixtureServer() }, projectRoot: tempDir() })
    await manager.start()
    expect(await manager.listResources()).toEqual({
      items: [{ server: 'fixture', uri: 'fixture://readme', name: 'readme', description: 'A short text resource.', mimeType: 'text/markdown' }],
      errors: [],
    })
    expect(await manager.readResource('fixture', 'fixture://readme')).toEqual([
      { uri: 'fixture://readme', mimeType: 'text/markdown', text: '# Fixture\nHello from the fixture.' },
    ])
    await expect(manager.readResource('fixture', 'fixture://missing')).rejects.toThrow(/could not read fixture:\/\/missing/)
    expect(await manager.listPrompts()).toEqual({
      items: [{ server: 'fixture', name: 'greet', description: 'Greets someone.', arguments: [{ name: 'name', required: true }] }],
      errors: [],
    })
    expect(await manager.getPrompt('fixture', 'greet', { name: 'Ada' })).toEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello to Ada.' }] }],
    })
  })

  it('sanitizes server names into valid, unique tool names', async () => {
    const manager = createManager({
      servers: { 'my.server': fixtureServer(), my_server: fixtureServer() },
      projectRoot: tempDir(),
    })
    await manager.start()
    const names = manager.listTools().map((t) => t.name)
    expect(names).toContain('my_server__echo')
    expect(names).toContain('my_server__echo_2')
    expect(new Set(names).size).toBe(names.length)
    const results = await Promise.all(names.filter((n) => n.startsWith('my_server__echo')).map((n) => manager.callTool(n, { text: n })))
    expect(results.map((r) => r.output).sort()).toEqual(['my_server__echo', 'my_server__echo_2'])
  })

  it('aborts a running call through its signal', async () => {
    const manager = createManager({ servers: { fixture: fixtureServer() }, projectRoot: tempDir() })
    await manager.start()
    const controller = new AbortController()
    const call = manager.callTool('fixture__slow', { ms: 10_000 }, controller.signal)
    setTimeout(() => controller.abort(new Error('user stopped')), 100)
    const started = Date.now()
    await expect(call).rejects.toThrow('user stopped')
    expect(Date.now() - started).toBeLessThan(2_000)
    // The server is still fine afterwards.
    expect(await manager.callTool('fixture__echo', { text: 'still here' })).toEqual({ output: 'still here', isError: false })
  })
})
