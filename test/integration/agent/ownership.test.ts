import { afterEach, describe, expect, it } from 'vitest'
import { closeIpcHarnesses, ipcHarness } from '../../support/ipc-harness'
import { tempDir, writeTree } from '../../support/temp'

afterEach(closeIpcHarnesses)

describe('a project owns its turns and asks', () => {
  it('closing the project ends a turn waiting on a permission ask, with the reason, and drops the ask', async () => {
    const { fake, services, call, next } = await ipcHarness()
    const project = await call<{ id: string }>('project.open', { path: tempDir() })
    const session = await call<{ id: string }>('session.create', { projectId: project.id })
    fake.enqueue({ toolCalls: [{ name: 'bash', args: { command: 'touch x', description: 'make x' } }] })
    await call('agent.prompt', { sessionId: session.id, text: 'go' })
    await next('permission:asked')
    expect(services.permissions.pending({ projectId: project.id })).toHaveLength(1)

    await call('project.close', { projectId: project.id })
    const ended = await next('agent:turnEnded')
    expect(ended).toMatchObject({ sessionId: session.id, status: 'aborted', error: { name: 'TurnCancelled', data: { message: 'the project was closed' } } })
    expect(services.permissions.pending({ projectId: project.id })).toEqual([])
    expect(services.agents.status(session.id)).toEqual({ type: 'idle' })
    expect(services.agents.isBusy(session.id)).toBe(false)
  })

  it('a turn is busy and stoppable while it still waits for an MCP server that never answers', async () => {
    const { services, call, next, fake } = await ipcHarness()
    const root = writeTree(tempDir(), {
      '.mcp.json': JSON.stringify({ mcpServers: { mute: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } } }),
    })
    services.trust.trust(root)
    const project = await call<{ id: string }>('project.open', { path: root })
    const session = await call<{ id: string }>('session.create', { projectId: project.id })
    const sent = call('agent.prompt', { sessionId: session.id, text: 'hello' }).catch((error: unknown) => error)
    // Registered before its first await: busy at once, and Stop reaches it.
    expect(services.agents.status(session.id)).toEqual({ type: 'busy' })
    expect(await call('agent.abort', { sessionId: session.id })).toEqual({ aborted: true })
    const ended = await next('agent:turnEnded', () => true, 5_000)
    expect(ended.status).toBe('aborted')
    expect(String(await sent)).toMatch(/agent.prompt/)
    expect(fake.requests).toHaveLength(0)
    expect(services.agents.status(session.id)).toEqual({ type: 'idle' })
  })
})
