import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { IpcResult } from '@shared/errors'
import type { BusEvent } from '../../../src/main/core/bus/bus'
import { Connection, createAppRouter } from '../../../src/main/ipc'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

async function setup() {
  const fake = await startFakeLlm()
  servers.push(fake)
  const home = tempDir()
  const services = testServices({
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.anthropicBaseURL },
  })
  const router = createAppRouter(services)
  const events: BusEvent[] = []
  const connection = new Connection('ui', (e) => events.push(e))
  services.bus.subscribe((e) => connection.offer(e))
  const call = async <T>(channel: string, payload: unknown): Promise<T> => {
    const result = (await router.handle(connection, channel, payload)) as IpcResult<T>
    if (!result.ok) throw new Error(`${channel}: ${result.error.name}: ${result.error.data.message}`)
    return result.value
  }
  const next = (channel: string, test: (payload: Record<string, unknown>) => boolean = () => true, timeoutMs = 10_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = events.find((e) => e.channel === channel && test(e.envelope.payload as Record<string, unknown>))
      if (seen) return resolve(seen.envelope.payload as Record<string, unknown>)
      const timer = setTimeout(() => reject(new Error(`no ${channel} event`)), timeoutMs)
      const off = services.bus.subscribe((e) => {
        if (e.channel === channel && test(e.envelope.payload as Record<string, unknown>)) {
          clearTimeout(timer)
          off()
          resolve(e.envelope.payload as Record<string, unknown>)
        }
      })
    })
  return { fake, services, call, next, events }
}

describe('a project owns its turns and asks', () => {
  it('closing the project ends a turn waiting on a permission ask, with the reason, and drops the ask', async () => {
    const { fake, services, call, next } = await setup()
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
    const { services, call, next, fake } = await setup()
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
