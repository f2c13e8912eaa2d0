import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { PartOf } from '@shared/schema/session'
import { BUILTIN_AGENTS } from '../../../src/main/core/agent/agents'
import { AgentService, type TurnEnvironment } from '../../../src/main/core/agent/service'
import type { ToolHost } from '../../../src/main/core/agent/tool-host'
import { SessionStore } from '../../../src/main/core/session/store'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { registryFor } from '../provider/helpers'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

/** A two-tool stand-in for the tool layer: enough to drive the loop through real files. */
function fileTools(root: string, slowMs = 0): ToolHost {
  return {
    definitions: () => [
      { name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'write', description: 'Write a file', inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } },
    ],
    async execute(call, ctx) {
      const args = call.input as { path?: string; content?: string }
      if (slowMs) {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, slowMs)
          ctx.signal.addEventListener('abort', () => (clearTimeout(t), reject(new Error('aborted'))))
        })
      }
      if (call.name === 'read') return { output: readFileSync(join(root, args.path ?? ''), 'utf8'), title: args.path, isError: false }
      if (call.name === 'write') {
        writeFileSync(join(root, args.path ?? ''), args.content ?? '')
        return { output: 'written', title: args.path, isError: false }
      }
      return { output: `unknown tool ${call.name}`, isError: true }
    },
  }
}

async function setup(model: string, tools?: (root: string) => ToolHost) {
  const fake = await startFakeLlm()
  servers.push(fake)
  const services = testServices()
  const root = writeTree(tempDir(), { 'a.txt': 'alpha\n' })
  const project = services.projects.openFolder(root)
  const store = new SessionStore(services.storage.sessions, services.bus)
  const env: TurnEnvironment = {
    projectRoot: root,
    agents: new Map(BUILTIN_AGENTS.map((a) => [a.name, a])),
    tools: (tools ?? fileTools)(root),
    system: (agent) => [agent.prompt],
  }
  const agents = new AgentService(store, registryFor(fake), services.bus, async () => env)
  const session = store.create({ projectId: project.id, agent: 'build', model })
  return { fake, services, store, agents, session, root }
}

for (const model of ['anthropic/claude-sonnet-4-5', 'openai/gpt-4.1']) {
  describe(`agent loop over ${model.split('/')[0]}`, () => {
    it('runs tools as the model calls them and continues until it answers', async () => {
      const { fake, agents, session, store, root } = await setup(model)
      fake.enqueue(
        { text: 'Let me look.', toolCalls: [{ name: 'read', args: { path: 'a.txt' } }] },
        { toolCalls: [{ name: 'write', args: { path: 'b.txt', content: 'beta\n' } }] },
        { text: 'Done: b.txt written.' },
      )
      const result = await agents.prompt({ sessionId: session.id, text: 'copy things' })
      expect(result.status).toBe('completed')
      expect(result.steps).toBe(3)
      expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('beta\n')
      const transcript = store.messages(session.id)
      expect(transcript.map((m) => m.info.role)).toEqual(['user', 'assistant', 'assistant', 'assistant'])
      const tool = transcript[1]?.parts.find((p): p is PartOf<'tool'> => p.type === 'tool')
      expect(tool?.state).toMatchObject({ status: 'completed', output: 'alpha\n', input: { path: 'a.txt' } })
      expect(transcript.at(-1)?.parts.find((p) => p.type === 'text')).toMatchObject({ text: 'Done: b.txt written.' })
      // The tool result went back to the model in the next request.
      expect(JSON.stringify(fake.requests[1]?.body)).toContain('alpha\\n')
      expect(fake.requests.every((r) => r.status === 200)).toBe(true)
    })

    it('answers malformed tool arguments with an error result and keeps going', async () => {
      const { fake, agents, session, store } = await setup(model)
      fake.enqueue({ toolCalls: [{ name: 'write', rawArgs: '{"path": "x.txt", "content": ' }] }, { text: 'Sorry, retrying later.' })
      const result = await agents.prompt({ sessionId: session.id, text: 'write x' })
      expect(result.status).toBe('completed')
      const tool = store.messages(session.id)[1]?.parts.find((p): p is PartOf<'tool'> => p.type === 'tool')
      expect(tool?.state.status).toBe('error')
      expect(tool?.state.error).toMatch(/not valid JSON/)
      expect(fake.requests.every((r) => r.status === 200)).toBe(true)
    })

    it('stops at any point: partial text kept, unfinished calls interrupted, next request valid', async () => {
      const { fake, agents, session, store } = await setup(model, (root) => fileTools(root, 5_000))
      fake.enqueue({ text: 'Reading now.', toolCalls: [{ name: 'read', args: { path: 'a.txt' } }] })
      const turn = agents.prompt({ sessionId: session.id, text: 'read it' })
      await waitFor(() => store.messages(session.id)[1]?.parts.some((p) => p.type === 'tool' && p.state.status === 'running'))
      agents.abort(session.id)
      const result = await turn
      expect(result.status).toBe('aborted')
      const [, assistant] = store.messages(session.id)
      expect(assistant?.parts.find((p) => p.type === 'text')).toMatchObject({ text: 'Reading now.' })
      expect(assistant?.parts.find((p): p is PartOf<'tool'> => p.type === 'tool')?.state.status).toBe('interrupted')
      expect(assistant?.info.error?.name).toBe('Aborted')

      fake.enqueue({ text: 'Fine.' })
      expect((await agents.prompt({ sessionId: session.id, text: 'never mind' })).status).toBe('completed')
      expect(fake.requests.at(-1)?.status).toBe(200)
    })

    it('retries a dropped stream without duplicating text', async () => {
      const { fake, agents, session, store } = await setup(model)
      fake.enqueue({ text: 'Hello there friend', fault: { type: 'drop', afterEvents: 4 } }, { text: 'Hello there friend' })
      const result = await agents.prompt({ sessionId: session.id, text: 'hi' })
      expect(result.status).toBe('completed')
      const texts = store.messages(session.id)[1]?.parts.filter((p): p is PartOf<'text'> => p.type === 'text')
      expect(texts?.map((t) => t.text)).toEqual(['Hello there friend'])
    })
  })
}

describe('agent loop persistence', () => {
  it('records usage and cost per step and reopens the session exactly', async () => {
    const { fake, agents, session, store, services } = await setup('anthropic/claude-sonnet-4-5')
    fake.enqueue({ text: 'Hi!', usage: { input: 1000, output: 50 } })
    await agents.prompt({ sessionId: session.id, text: 'hello' })
    const before = store.messages(session.id)
    const finish = before[1]?.parts.find((p): p is PartOf<'step-finish'> => p.type === 'step-finish')
    expect(finish?.usage).toMatchObject({ input: 1000, output: 50 })
    expect(finish?.cost).toBeGreaterThan(0)
    const reopened = new SessionStore(services.storage.sessions, services.bus)
    expect(reopened.messages(session.id)).toEqual(before)
  })
})

async function waitFor(test: () => boolean | undefined, timeoutMs = 5000): Promise<void> {
  const start = Date.now()
  while (!test()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 10))
  }
}
