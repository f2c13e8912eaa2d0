import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { IpcResult } from '@shared/errors'
import { Connection, createAppRouter } from '../../../src/main/ipc'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { STDIO_FIXTURE, TSX_LOADER } from './helpers'

type Status = { name: string; state: string }

describe('MCP servers from the settings UI', () => {
  it('adds a server to .mcp.json (formatting kept) and Refresh picks up a file edited by hand', { timeout: 60_000 }, async () => {
    const root = writeTree(tempDir(), { '.mcp.json': '{\n  // project servers\n  "mcpServers": {}\n}\n' })
    const services = testServices()
    services.trust.trust(root)
    const project = services.projects.openFolder(root)
    const router = createAppRouter(services)
    const conn = new Connection('t', () => undefined)
    const call = async <T>(channel: string, input: unknown) => (await router.handle(conn, channel, input)) as IpcResult<T>

    const saved = await call<Status[]>('mcp.saveServer', { projectId: project.id, name: 'fixture', command: process.execPath, args: ['--import', TSX_LOADER, STDIO_FIXTURE] })
    expect(saved.ok && saved.value.map((s) => [s.name, s.state])).toEqual([['fixture', 'connected']])
    const text = readFileSync(join(root, '.mcp.json'), 'utf8')
    expect(text).toContain('// project servers')
    expect(text).toContain('"fixture"')

    // The file changes outside the app: Refresh re-reads it.
    writeFileSync(join(root, '.mcp.json'), '{ "mcpServers": {} }\n')
    const reloaded = await call<Status[]>('mcp.reload', { projectId: project.id })
    expect(reloaded).toEqual({ ok: true, value: [] })
    expect(services.mcp.toolsOf(project.id)).toEqual([])
  })
})
