import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { McpServerSchema } from '../../../src/main/core/config/schema'
import { claudeDesktopConfigPath, convertClaudeDesktopConfig, importClaudeDesktopConfig } from '../../../src/main/core/mcp'
import { tempDir } from '../../support/temp'
import { createManager, fixtureServer, STDIO_FIXTURE, TSX_LOADER } from './helpers'

function writeMcpJson(root: string, document: unknown): void {
  writeFileSync(join(root, '.mcp.json'), typeof document === 'string' ? document : JSON.stringify(document, null, 2))
}

describe('.mcp.json', () => {
  it("starts the project's .mcp.json servers, with ${VAR} and {env:VAR} expanded", async () => {
    const root = tempDir()
    writeMcpJson(root, {
      mcpServers: {
        shared: {
          command: process.execPath,
          args: ['--import', TSX_LOADER, STDIO_FIXTURE, '--mode', '${HOTARU_TEST_MODE:-ok}'],
          env: { HOTARU_FIXTURE_VALUE: '{env:HOTARU_TEST_VALUE}-${HOTARU_TEST_VALUE}' },
        },
      },
    })
    const manager = createManager({ servers: undefined, projectRoot: root, projectMcpJson: true, env: { ...process.env, HOTARU_TEST_VALUE: 'v' } })
    await manager.start()
    expect(manager.status('shared')).toMatchObject({ state: 'connected', source: 'mcp.json', type: 'local' })
    const report = JSON.parse((await manager.callTool('shared__environment', {})).output as string) as { value: string }
    expect(report.value).toBe('v-v')
    expect(manager.warnings()).toEqual([])
  })

  it('prefers hotaru config on a name clash and reports bad entries without dropping good ones', async () => {
    const root = tempDir()
    writeMcpJson(root, {
      mcpServers: {
        both: { command: 'hotaru-not-this-one' },
        broken: { args: ['no command'] },
        badurl: { url: 'ftp://example.com' },
        off: { command: 'hotaru-disabled-server', disabled: true },
      },
    })
    const manager = createManager({ servers: { both: fixtureServer() }, projectRoot: root, projectMcpJson: true })
    await manager.start()
    expect(manager.statuses().map((s) => [s.name, s.source, s.state])).toEqual([
      ['both', 'config', 'connected'],
      ['off', 'mcp.json', 'disabled'],
    ])
    const warnings = manager.warnings()
    expect(warnings).toContain('MCP server "both" is defined in hotaru config and in .mcp.json; the hotaru config is used')
    expect(warnings.some((w) => w.includes('server "broken" skipped') && w.includes('command'))).toBe(true)
    expect(warnings.some((w) => w.includes('server "badurl" skipped') && w.includes('http(s) URL'))).toBe(true)
  })

  it('reports a .mcp.json that is not valid JSON and still starts the configured servers', async () => {
    const root = tempDir()
    writeMcpJson(root, '{ "mcpServers": { ')
    const manager = createManager({ servers: { ok: fixtureServer() }, projectRoot: root, projectMcpJson: true })
    await manager.start()
    expect(manager.status('ok').state).toBe('connected')
    expect(manager.warnings()).toHaveLength(1)
    expect(manager.warnings()[0]).toContain('.mcp.json')
  })
})

describe('Claude Desktop import', () => {
  const desktopConfig = {
    globalShortcut: 'Ctrl+Space',
    mcpServers: {
      filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { DEBUG: '1' } },
      remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' }, type: 'http' },
      paused: { command: 'uvx', args: ['some-server'], disabled: true },
      nonsense: { foo: 1 },
    },
  }

  it('converts the mcpServers list into our config shape (pure)', () => {
    const { servers, warnings } = convertClaudeDesktopConfig(desktopConfig)
    expect(servers).toEqual({
      filesystem: { type: 'local', command: ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { DEBUG: '1' } },
      remote: { type: 'remote', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
      paused: { type: 'local', command: ['uvx', 'some-server'], enabled: false },
    })
    for (const config of Object.values(servers)) expect(McpServerSchema.safeParse(config).success).toBe(true)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^Claude Desktop config: server "nonsense" skipped: /)
    expect(convertClaudeDesktopConfig({}).servers).toEqual({})
    expect(convertClaudeDesktopConfig([]).warnings).toEqual(['Claude Desktop config: expected a JSON object with "mcpServers"'])
  })

  it('loads the file, and imported servers run', async () => {
    const dir = tempDir()
    const file = join(dir, 'claude_desktop_config.json')
    const fixture = fixtureServer()
    const [command, ...args] = fixture.command as string[]
    writeFileSync(file, JSON.stringify({ mcpServers: { fixture: { command, args } } }))
    const imported = await importClaudeDesktopConfig(file)
    expect(imported.warnings).toEqual([])
    const manager = createManager({ servers: imported.servers, projectRoot: tempDir() })
    await manager.start()
    expect(manager.status('fixture').state).toBe('connected')

    await expect(importClaudeDesktopConfig(join(dir, 'missing.json'))).rejects.toThrow(`no Claude Desktop config at ${join(dir, 'missing.json')}`)
    writeFileSync(join(dir, 'bad.json'), '{')
    await expect(importClaudeDesktopConfig(join(dir, 'bad.json'))).rejects.toThrow('is not valid JSON')
  })

  it('knows where Claude Desktop keeps its config', () => {
    expect(claudeDesktopConfigPath('darwin', {}, '/Users/ada')).toBe('/Users/ada/Library/Application Support/Claude/claude_desktop_config.json')
    expect(claudeDesktopConfigPath('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'C:\\Users\\ada')).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    )
    expect(claudeDesktopConfigPath('linux', {}, '/home/ada')).toBe('/home/ada/.config/Claude/claude_desktop_config.json')
  })
})
