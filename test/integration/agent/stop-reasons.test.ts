import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { MessageWithParts, PartOf } from '@shared/schema/session'
import { BUILTIN_AGENTS } from '../../../src/main/core/agent/agents'
import { AgentService, type TurnEnvironment } from '../../../src/main/core/agent/service'
import type { ToolHost } from '../../../src/main/core/agent/tool-host'
import { CONTINUE_TRUNCATED_TEXT } from '../../../src/main/core/context/stopped-turns'
import { SessionStore } from '../../../src/main/core/session/store'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { registryFor } from '../provider/helpers'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'

/**
 * Every stop reason, end to end: the real SDKs stream from the fake server, the loop decides,
 * and the tests check what the transcript shows and what the next request carries.
 */

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

function fileTools(root: string): ToolHost {
  return {
    definitions: () => [
      { name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'write', description: 'Write a file', inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } },
    ],
    async execute(call) {
      const args = call.input as { path?: string; content?: string }
      if (call.name === 'read') return { output: readFileSync(join(root, args.path ?? ''), 'utf8'), title: args.path, isError: false }
      writeFileSync(join(root, args.path ?? ''), args.content ?? '')
      return { output: 'written', title: args.path, isError: false }
    },
  }
}

async function setup(model: string) {
  const fake = await startFakeLlm()
  servers.push(fake)
  const services = testServices()
  const root = writeTree(tempDir(), { 'a.txt': 'alpha\n' })
  const project = services.projects.openFolder(root)
  const store = new SessionStore(services.storage.sessions, services.bus)
  const providers = registryFor(fake)
  const env: TurnEnvironment = {
    projectRoot: root,
    agents: new Map(BUILTIN_AGENTS.map((a) => [a.name, a])),
    tools: fileTools(root),
    system: (agent) => [agent.prompt],
  }
  const agents = new AgentService(store, providers, services.bus, async () => env)
  const session = store.create({ projectId: project.id, agent: 'build', model })
  return { fake, store, agents, session, root }
}

/** The request's messages in a provider-neutral reading: role and the text of each message. */
function wireMessages(body: unknown): Array<{ role: string; text: string }> {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages
  return messages.map((m) => ({ role: m.role, text: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }))
}

function toolPart(message: MessageWithParts | undefined): PartOf<'tool'> | undefined {
  return message?.parts.find((p): p is PartOf<'tool'> => p.type === 'tool')
}

function texts(message: MessageWithParts | undefined): string[] {
  return message?.parts.filter((p): p is PartOf<'text'> => p.type === 'text').map((p) => p.text) ?? []
}

const MODELS = [
  { model: 'anthropic/claude-sonnet-4-5', maxTokens: 'max_tokens', lengthStop: 'max_tokens', limit: 64_000 },
  { model: 'openai/gpt-4.1', maxTokens: 'max_completion_tokens', lengthStop: 'length', limit: 32_768 },
] as const

for (const { model, maxTokens, lengthStop, limit } of MODELS) {
  describe(`stop reasons over ${model.split('/')[0]}`, () => {
    it('continues a cut-off answer once, telling the model it was cut off', async () => {
      const { fake, agents, session, store } = await setup(model)
      fake.enqueue({ text: 'The first half of the answer', stopReason: lengthStop }, { text: ' and the second half.' })
      const result = await agents.prompt({ sessionId: session.id, text: 'explain' })
      expect(result).toMatchObject({ status: 'completed', steps: 2, finish: 'stop' })
      const [, cut, rest] = store.messages(session.id)
      expect(cut?.info.finish).toBe('length')
      expect(texts(rest)).toEqual([' and the second half.'])
      // The continuation request: the cut answer, then the note, as the last user message.
      const sent = wireMessages(fake.requests[1]?.body)
      expect(sent.at(-2)).toMatchObject({ role: 'assistant' })
      expect(sent.at(-2)?.text).toContain('The first half of the answer')
      expect(sent.at(-1)).toMatchObject({ role: 'user' })
      expect(sent.at(-1)?.text).toContain(CONTINUE_TRUNCATED_TEXT)
    })

    it('ends truncated when the continuation is cut off too', async () => {
      const { fake, agents, session } = await setup(model)
      fake.enqueue({ text: 'One', stopReason: lengthStop }, { text: 'Two', stopReason: lengthStop })
      const result = await agents.prompt({ sessionId: session.id, text: 'explain' })
      expect(result).toMatchObject({ status: 'truncated', steps: 2, finish: 'length' })
      expect(fake.requests).toHaveLength(2)
    })

    it('asks again with the whole output limit when the limit cut a tool call, then runs it', async () => {
      const { fake, agents, session, store, root } = await setup(model)
      fake.enqueue(
        { text: 'Writing it.', toolCalls: [{ name: 'write', rawArgs: '{"path": "big.txt", "content": "aaaa' }], stopReason: lengthStop },
        { text: 'Writing it.', toolCalls: [{ name: 'write', args: { path: 'big.txt', content: 'aaaa\n' } }] },
        { text: 'Done.' },
      )
      // Reasoning off: the first request asks for the usual 32k, below the model's limit.
      const result = await agents.prompt({ sessionId: session.id, text: 'write big.txt', effort: 'off' })
      expect(result).toMatchObject({ status: 'completed', steps: 2 })
      expect(readFileSync(join(root, 'big.txt'), 'utf8')).toBe('aaaa\n')
      const body = (i: number): Record<string, unknown> => fake.requests[i]?.body as Record<string, unknown>
      expect(body(0)[maxTokens]).toBe(32_000)
      expect(body(1)[maxTokens]).toBe(limit)
      // The same request again: the cut attempt left nothing behind.
      expect(wireMessages(body(1))).toEqual(wireMessages(body(0)))
      const step = store.messages(session.id)[1]
      expect(step?.parts.filter((p) => p.type === 'tool')).toHaveLength(1)
      expect(texts(step)).toEqual(['Writing it.'])
      expect(toolPart(step)?.state.status).toBe('completed')
    })

    it('tells the model a call was cut off at the output limit, not that its JSON was invalid', async () => {
      const { fake, agents, session, store } = await setup(model)
      const cut = { toolCalls: [{ name: 'write', rawArgs: '{"path": "big.txt", "content": "aaaa' }], stopReason: lengthStop }
      fake.enqueue(cut, cut, { text: 'I will split it.' })
      const result = await agents.prompt({ sessionId: session.id, text: 'write big.txt', effort: 'off' })
      expect(result).toMatchObject({ status: 'completed', steps: 2 })
      const tool = toolPart(store.messages(session.id)[1])
      expect(tool?.state.status).toBe('error')
      expect(tool?.state.error).toContain(`Your call to write was cut off at the output limit of ${limit} tokens`)
      expect(tool?.state.error).toContain('Split the content')
      expect(tool?.state.error).not.toMatch(/not valid JSON/)
      const sent = JSON.stringify(fake.requests[2]?.body)
      expect(sent).toContain(`cut off at the output limit of ${limit} tokens`)
      expect(fake.requests.every((r) => r.status === 200)).toBe(true)
    })

    it('compacts and retries the step once when the prompt is too long', async () => {
      const { fake, agents, session, store } = await setup(model)
      fake.enqueue({ text: 'Earlier answer.' })
      await agents.prompt({ sessionId: session.id, text: 'first question' })
      fake.enqueue(
        { fault: { type: 'http', status: 400, message: 'prompt is too long: 212345 tokens > 200000 maximum' } },
        { text: '## Summary\nThe user asked a first question.' },
        { text: 'Answer after compaction.' },
      )
      const result = await agents.prompt({ sessionId: session.id, text: 'second question' })
      expect(result).toMatchObject({ status: 'completed', finish: 'stop' })
      const messages = store.messages(session.id)
      expect(messages.some((m) => m.parts.some((p) => p.type === 'compaction'))).toBe(true)
      expect(texts(messages.at(-1))).toEqual(['Answer after compaction.'])
      // The retried request carries the summary instead of the verbatim history.
      const retried = JSON.stringify(fake.requests.at(-1)?.body)
      expect(retried).toContain('conversation-summary')
      expect(retried).toContain('second question')
      expect(messages.every((m) => m.info.error === undefined)).toBe(true)
    })

    it('ends with a clear error when the prompt is still too long after compacting', async () => {
      const { fake, agents, session } = await setup(model)
      fake.enqueue({ text: 'Earlier answer.' })
      await agents.prompt({ sessionId: session.id, text: 'first question' })
      const tooLong = { fault: { type: 'http' as const, status: 400, message: 'prompt is too long: 212345 tokens > 200000 maximum' } }
      fake.enqueue(tooLong, { text: '## Summary\nA first question.' }, tooLong)
      const result = await agents.prompt({ sessionId: session.id, text: 'second question' })
      expect(result.status).toBe('error')
      expect(result.error?.name).toBe('ContextOverflow')
      expect(result.error?.data.message).toMatch(/even after compacting/)
      expect(fake.requests).toHaveLength(4)
    })
  })
}

describe('refusals and filters', () => {
  it('shows an Anthropic refusal with its explanation and leaves the refused exchange out of the next request', async () => {
    const { fake, agents, session, store } = await setup('anthropic/claude-sonnet-4-5')
    // The response shape of the streaming-refusals guide in Anthropic's docs.
    fake.enqueue({
      text: 'Hello..',
      stopReason: 'refusal',
      stopDetails: { type: 'refusal', category: 'cyber', explanation: 'This request was declined because it could enable cyber harm.' },
    })
    const result = await agents.prompt({ sessionId: session.id, text: 'the refused request' })
    expect(result).toMatchObject({ status: 'refused', finish: 'refusal' })
    expect(result.detail).toBe('This request was declined because it could enable cyber harm. (cyber)')
    const answer = store.messages(session.id)[1]
    expect(answer?.info.finish).toBe('refusal')
    expect(texts(answer)).toEqual(['Hello..', 'Declined: This request was declined because it could enable cyber harm. (cyber)'])

    fake.enqueue({ text: 'Sure.' })
    expect((await agents.prompt({ sessionId: session.id, text: 'something else' })).status).toBe('completed')
    const next = JSON.stringify(fake.requests[1]?.body)
    expect(next).toContain('something else')
    expect(next).not.toContain('the refused request')
    expect(next).not.toContain('Hello..')
  })

  it('shows an OpenAI refusal delta as the answer and ends refused', async () => {
    const { fake, agents, session, store } = await setup('openai/gpt-4.1')
    fake.enqueue({ refusal: ["I'm sorry", ", I can't help."] })
    const result = await agents.prompt({ sessionId: session.id, text: 'do the thing' })
    expect(result).toMatchObject({ status: 'refused', finish: 'refusal' })
    expect(texts(store.messages(session.id)[1])).toEqual(["I'm sorry, I can't help."])
  })

  it('ends a content-filtered answer as refused, with a notice when nothing was shown', async () => {
    const { fake, agents, session, store } = await setup('openai/gpt-4.1')
    fake.enqueue({ text: 'Partial', stopReason: 'content_filter' })
    expect(await agents.prompt({ sessionId: session.id, text: 'q' })).toMatchObject({ status: 'refused', finish: 'content_filter' })
    fake.enqueue({ stopReason: 'content_filter' })
    expect(await agents.prompt({ sessionId: session.id, text: 'q2' })).toMatchObject({ status: 'refused', finish: 'content_filter' })
    const last = store.messages(session.id).at(-1)
    expect(texts(last)).toEqual(["The provider's content filter withheld the answer."])
  })
})

describe('anthropic-only stops', () => {
  it('tells the model at once when thinking already asked for the whole output limit', async () => {
    const { fake, agents, session, store } = await setup('anthropic/claude-sonnet-4-5')
    fake.enqueue({ toolCalls: [{ name: 'write', rawArgs: '{"path": "big.txt", "content": "aaaa' }], stopReason: 'max_tokens' }, { text: 'I will split it.' })
    const result = await agents.prompt({ sessionId: session.id, text: 'write big.txt', effort: 'high' })
    expect(result).toMatchObject({ status: 'completed', steps: 2 })
    expect((fake.requests[0]?.body as { max_tokens: number }).max_tokens).toBe(64_000)
    expect(toolPart(store.messages(session.id)[1])?.state.error).toContain('cut off at the output limit of 64000 tokens')
    expect(fake.requests).toHaveLength(2)
  })

  it('continues a paused turn by sending the paused content back as-is', async () => {
    const { fake, agents, session, store } = await setup('anthropic/claude-sonnet-4-5')
    fake.enqueue({ text: 'Searching the docs.', stopReason: 'pause_turn' }, { text: 'Found it.' })
    const result = await agents.prompt({ sessionId: session.id, text: 'look it up' })
    expect(result).toMatchObject({ status: 'completed', steps: 2 })
    // The continuation request ends with the paused assistant content, no new user message.
    const sent = wireMessages(fake.requests[1]?.body)
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(sent[1]?.text).toContain('Searching the docs.')
    expect(store.messages(session.id)[1]?.info.finish).toBe('pause')
    // Later requests carry the paused and continued content as one assistant turn.
    fake.enqueue({ text: 'Ok.' })
    await agents.prompt({ sessionId: session.id, text: 'thanks' })
    const later = wireMessages(fake.requests[2]?.body)
    expect(later.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(later[1]?.text).toContain('Found it.')
  })

  it('compacts and retries when the context window filled up while the model wrote', async () => {
    const { fake, agents, session, store } = await setup('anthropic/claude-sonnet-4-5')
    fake.enqueue({ text: 'Earlier answer.' })
    await agents.prompt({ sessionId: session.id, text: 'first question' })
    fake.enqueue(
      { text: 'A long answer that fil', stopReason: 'model_context_window_exceeded' },
      { text: '## Summary\nThe user asked a first question.' },
      { text: 'A complete answer.' },
    )
    const result = await agents.prompt({ sessionId: session.id, text: 'second question' })
    expect(result).toMatchObject({ status: 'completed', finish: 'stop' })
    const messages = store.messages(session.id)
    expect(messages.some((m) => m.parts.some((p) => p.type === 'compaction'))).toBe(true)
    // The cut attempt's text is not kept next to the complete answer.
    expect(messages.flatMap((m) => texts(m)).filter((t) => t.startsWith('A '))).toEqual(['A complete answer.'])
    expect(JSON.stringify(fake.requests.at(-1)?.body)).not.toContain('A long answer')
  })

  it('resumes from the stored step when the stream fails after a completed tool call', async () => {
    const { fake, agents, session, store } = await setup('anthropic/claude-sonnet-4-5')
    // message_start, block start, ping, 4 argument deltas, block stop: then an api_error event.
    fake.enqueue(
      { toolCalls: [{ name: 'read', args: { path: 'a.txt' } }], fault: { type: 'stream-error', afterEvents: 8, errorType: 'api_error' } },
      { text: 'a.txt holds alpha.' },
    )
    const result = await agents.prompt({ sessionId: session.id, text: 'read a.txt' })
    expect(result).toMatchObject({ status: 'completed', steps: 2 })
    const [, step, answer] = store.messages(session.id)
    expect(step?.info).toMatchObject({ finish: 'interrupted' })
    expect(step?.info.error).toBeUndefined()
    expect(toolPart(step)?.state).toMatchObject({ status: 'completed', output: 'alpha\n' })
    expect(texts(answer)).toEqual(['a.txt holds alpha.'])
    // The new request carries the completed call and its result.
    expect(JSON.stringify(fake.requests[1]?.body)).toContain('alpha\\n')
    expect(fake.requests).toHaveLength(2)
  })
})
