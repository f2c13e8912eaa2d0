import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'

const fakes: FakeLlm[] = []
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close()
})

const MUTE = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }

async function setup(mcpJson: unknown) {
  const fake = await startFakeLlm()
  fakes.push(fake)
  const home = tempDir()
  const services = testServices({
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.anthropicBaseURL },
  })
  const root = writeTree(tempDir(), { '.mcp.json': JSON.stringify(mcpJson) })
  services.trust.trust(root)
  const project = services.projects.openFolder(root, { tab: false })
  return { fake, services, project }
}

describe('MCP start-up', () => {
  it('a server that never answers its handshake does not hold up the first model request', async () => {
    const { fake, services, project } = await setup({ mcpServers: { mute: MUTE } })
    const session = services.sessions.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-6' })
    fake.enqueue({ text: 'answered' })
    const result = await services.agents.prompt({ sessionId: session.id, text: 'hi' })
    expect(result).toMatchObject({ status: 'completed' })
    // Answered while the server was still in its (30 s) handshake (or its client code was still loading).
    expect(services.mcp.statuses(project.id).map((s) => s.state).filter((state) => state !== 'starting')).toEqual([])
    expect(fake.requests).toHaveLength(1)
  })

  it('honours timeoutMs from .mcp.json', async () => {
    const { services, project } = await setup({ mcpServers: { mute: { ...MUTE, timeoutMs: 300 } } })
    const deadline = Date.now() + 10_000
    while (services.mcp.statuses(project.id)[0]?.state !== 'failed' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(services.mcp.statuses(project.id)[0]).toMatchObject({ state: 'failed', error: expect.stringContaining('did not answer the MCP handshake within 0.3 s') })
  })
})
