import { afterEach, describe, expect, it } from 'vitest'
import type { PartOf } from '@shared/schema/session'
import { BUILTIN_AGENTS } from '../../../src/main/core/agent/agents'
import { AgentService, type TurnEnvironment } from '../../../src/main/core/agent/service'
import type { ToolHost } from '../../../src/main/core/agent/tool-host'
import type { Config } from '../../../src/main/core/config'
import { SessionStore } from '../../../src/main/core/session/store'
import { startFakeLlm, type FakeLlm, type RecordedRequest } from '../../fixtures/fake-llm'
import { validateAnthropic } from '../../fixtures/fake-llm/validate-anthropic'
import { registryFor } from '../provider/helpers'
import { testServices } from '../../support/services'
import { tempDir } from '../../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

const echoTools: ToolHost = {
  definitions: () => [{ name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
  execute: async (call) => ({ output: `contents of ${String((call.input as { path?: string }).path)}`, isError: false }),
}

async function setup(model: string, config?: Config) {
  const fake = await startFakeLlm()
  servers.push(fake)
  const services = testServices()
  const project = services.projects.openFolder(tempDir())
  const store = new SessionStore(services.storage.sessions, services.bus)
  const env: TurnEnvironment = {
    projectRoot: project.root,
    agents: new Map(BUILTIN_AGENTS.map((a) => [a.name, a])),
    tools: echoTools,
    system: (agent) => [agent.prompt],
    ...(config ? { config, agents: agentsWith(config) } : {}),
  }
  const agents = new AgentService(store, registryFor(fake), services.bus, async () => env)
  const session = store.create({ projectId: project.id, agent: 'build', model })
  return { fake, services, store, agents, session }
}

function agentsWith(config: Config) {
  return new Map(BUILTIN_AGENTS.map((a) => [a.name, { ...a, ...(config.agent?.[a.name]?.effort ? { effort: config.agent[a.name]?.effort } : {}) }]))
}

type Body = Record<string, unknown> & { messages?: Array<{ role: string; content: unknown }> }
const bodies = (fake: FakeLlm): Body[] => fake.requests.map((r: RecordedRequest) => r.body as Body)
/** OpenAI's effort, on Chat Completions (`reasoning_effort`) or Responses (`reasoning.effort`). */
const openaiEffort = (body: Body | undefined): unknown =>
  body?.reasoning_effort ?? (body?.reasoning as { effort?: unknown } | undefined)?.effort

describe('reasoning in the agent loop', () => {
  it('asks Claude to think adaptively at its default effort on every request of a turn', async () => {
    const { fake, agents, session } = await setup('anthropic/claude-sonnet-5-5')
    fake.enqueue(
      { reasoning: 'I should read a.', signature: 'sig-a', toolCalls: [{ name: 'read', args: { path: 'a' } }] },
      { reasoning: 'Now answer.', signature: 'sig-b', text: 'a holds its contents.' },
    )
    const result = await agents.prompt({ sessionId: session.id, text: 'what is in a?' })
    expect(result.status).toBe('completed')
    const [first, second] = bodies(fake)
    expect(first).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' }, max_tokens: 128_000 })
    // The tool loop sends the thinking back first, signature unchanged.
    expect(second?.thinking).toEqual({ type: 'adaptive' })
    expect(second?.messages?.[1]?.content).toMatchObject([
      { type: 'thinking', thinking: 'I should read a.', signature: 'sig-a' },
      { type: 'tool_use', name: 'read' },
    ])
    expect(fake.requests.every((r) => r.status === 200)).toBe(true)
  })

  it('remembers the effort a prompt picked with the session and sends it until another is picked', async () => {
    const { fake, agents, session, store, services } = await setup('anthropic/claude-sonnet-5-5')
    fake.enqueue({ text: 'one' }, { text: 'two' }, { text: 'three' })
    await agents.prompt({ sessionId: session.id, text: 'first', effort: 'low' })
    await agents.prompt({ sessionId: session.id, text: 'second' })
    expect(store.get(session.id).effort).toBe('low')
    // Read back from SQLite: the choice is stored with the session, not kept in memory.
    expect(services.storage.sessions.session(session.id)?.effort).toBe('low')
    await agents.prompt({ sessionId: session.id, text: 'third', effort: 'off' })
    const sent = bodies(fake).map((b) => [b.thinking, b.output_config])
    expect(sent).toEqual([
      [{ type: 'adaptive' }, { effort: 'low' }],
      [{ type: 'adaptive' }, { effort: 'low' }],
      [{ type: 'disabled' }, undefined],
    ])
  })

  it('takes the agent effort over the config effort, and the session choice over both', async () => {
    const { fake, agents, session } = await setup('openai/gpt-6.2-sol', { effort: 'low', agent: { build: { effort: 'max' } } })
    fake.enqueue({ text: 'one' }, { text: 'two' })
    await agents.prompt({ sessionId: session.id, text: 'first' })
    await agents.prompt({ sessionId: session.id, text: 'second', effort: 'medium' })
    expect(bodies(fake).map(openaiEffort)).toEqual(['max', 'medium'])
  })

  it('switches Claude → GPT → Claude with tool loops and no request the API would refuse', async () => {
    const { fake, agents, session, store } = await setup('anthropic/claude-sonnet-5-5')
    fake.enqueue(
      { reasoning: 'Claude plans.', signature: 'sig-1', toolCalls: [{ name: 'read', args: { path: 'a' } }] },
      { reasoning: 'Claude concludes.', signature: 'sig-2', text: 'Claude: done.' },
      { reasoning: 'GPT private reasoning.', toolCalls: [{ name: 'read', args: { path: 'b' } }] },
      { text: 'GPT: done.' },
      { reasoning: 'Claude again.', signature: 'sig-3', toolCalls: [{ name: 'read', args: { path: 'c' } }] },
      { reasoning: 'Wrap up.', signature: 'sig-4', text: 'Claude: all done.' },
    )
    expect((await agents.prompt({ sessionId: session.id, text: 'one' })).status).toBe('completed')
    expect((await agents.prompt({ sessionId: session.id, text: 'two', model: 'openai/gpt-5' })).status).toBe('completed')
    expect((await agents.prompt({ sessionId: session.id, text: 'three', model: 'anthropic/claude-sonnet-5-5' })).status).toBe('completed')
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200])

    const sent = bodies(fake)
    // GPT gets neither Claude's thinking text nor its signatures, and its own effort.
    const gpt = JSON.stringify(sent[2])
    expect(gpt).not.toContain('Claude plans.')
    expect(gpt).not.toContain('sig-1')
    expect(openaiEffort(sent[2])).toBe('medium')
    // Back at Claude: its own thinking goes back signed; GPT's reasoning is never replayed as thinking.
    const back = JSON.stringify(sent[4])
    expect(back).toContain('"signature":"sig-1"')
    expect(back).not.toContain('GPT private reasoning.')
    expect(sent[4]?.thinking).toEqual({ type: 'adaptive' })
    expect(sent[5]?.thinking).toEqual({ type: 'adaptive' })
    const reasoning = store.messages(session.id).flatMap((m) => m.parts).filter((p): p is PartOf<'reasoning'> => p.type === 'reasoning')
    expect(reasoning.map((p) => p.providerId)).toEqual(['anthropic', 'anthropic', 'openai', 'anthropic', 'anthropic'])
  })
})

describe('the fake server refuses what the Messages API refuses', () => {
  const user = { role: 'user', content: [{ type: 'text', text: 'go' }] }
  const toolTurn = (first: unknown) => [
    user,
    { role: 'assistant', content: [first, { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] },
  ]
  const base = { model: 'claude-sonnet-5-5', max_tokens: 2000 }

  it.each([
    ['thinking without its signature', { ...base, messages: toolTurn({ type: 'thinking', thinking: 'hm' }) }, /signature: Field required/],
    [
      'budget thinking on while the tool-loop turn does not start with thinking',
      { ...base, model: 'claude-sonnet-4-5', thinking: { type: 'enabled', budget_tokens: 1024 }, messages: toolTurn({ type: 'text', text: 'let me look' }) },
      /final `assistant` message must start with a thinking block/,
    ],
    ['budget_tokens not below max_tokens', { ...base, thinking: { type: 'enabled', budget_tokens: 2000 }, messages: [user] }, /must be greater than `thinking.budget_tokens`/],
    ['temperature with thinking', { ...base, thinking: { type: 'adaptive' }, temperature: 0.2, messages: [user] }, /temperature/],
  ])('%s', (_name, body, message) => {
    expect(validateAnthropic(body)?.message).toMatch(message)
  })

  it('accepts a signed tool loop, an adaptive step the model took without thinking, and thinking switched off', () => {
    const signed = { ...base, thinking: { type: 'adaptive' }, messages: toolTurn({ type: 'thinking', thinking: 'hm', signature: 's' }) }
    expect(validateAnthropic(signed)).toBeUndefined()
    expect(validateAnthropic({ ...base, thinking: { type: 'adaptive' }, messages: toolTurn({ type: 'text', text: 'let me look' }) })).toBeUndefined()
    expect(validateAnthropic({ ...base, thinking: { type: 'disabled' }, messages: toolTurn({ type: 'text', text: 'x' }) })).toBeUndefined()
  })
})
