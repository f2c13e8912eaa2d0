import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type ModelMessage, ProviderErrorNames, type ToolDefinition } from '../../../src/main/core/provider'
import { type FakeLlm, startFakeLlm } from '../../fixtures/fake-llm'
import { TEST_KEY, collect, collectUntilError, connectionsOfConsecutiveStreams, registryFor, transcriptOf } from './helpers'

const MODEL = 'anthropic/claude-haiku-4-5'
const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] })
const tools: ToolDefinition[] = [
  { name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'write', description: 'Write a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
]

type Body = {
  system?: Array<Record<string, unknown>>
  tools?: Array<Record<string, unknown>>
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>
  thinking?: Record<string, unknown>
  max_tokens: number
}

let server: FakeLlm
beforeEach(async () => {
  server = await startFakeLlm({ apiKey: TEST_KEY })
})
afterEach(async () => {
  await server.close()
})

describe('Anthropic provider through the real SDK', () => {
  it('streams text deltas, usage and the stop reason', async () => {
    server.enqueue({ text: ['Hel', 'lo ', 'world'], usage: { input: 120, output: 7, cacheRead: 100, cacheWrite: 20 } })
    const events = await collect(registryFor(server).stream({ model: MODEL, messages: [user('hi')] }))
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo ' },
      { type: 'text-delta', text: 'world' },
      { type: 'usage', usage: { input: 120, output: 7, cacheRead: 100, cacheWrite: 20 } },
      { type: 'finish', reason: 'stop', rawReason: 'end_turn' },
    ])
    const request = server.requests[0]
    expect(request?.path).toBe('/v1/messages')
    expect(request?.headers.authorization).toBe(`Bearer ${TEST_KEY}`)
    // Our retry is the only one: the SDK must not retry on its own.
    expect(request?.headers['x-stainless-retry-count']).toBe('0')
  })

  it('sends consecutive requests over one connection (no new handshake per step)', async () => {
    expect(await connectionsOfConsecutiveStreams(server, MODEL, tools)).toEqual([1, 1, 1])
  })

  it('streams parallel tool calls, each ending as soon as it is complete', async () => {
    server.enqueue({
      text: 'Reading both.',
      toolCalls: [
        { id: 'toolu_a', name: 'read', args: { path: 'a.txt' } },
        { id: 'toolu_b', name: 'read', args: { path: 'b.txt' } },
      ],
    })
    const events = await collect(registryFor(server).stream({ model: MODEL, messages: [user('read a and b')], tools }))
    const types = events.map((e) => e.type)
    // The first call ends before the second starts: the loop can run it right away.
    expect(types.indexOf('tool-call-end')).toBeLessThan(types.lastIndexOf('tool-call-start'))
    const t = transcriptOf(events)
    expect(t.text).toBe('Reading both.')
    expect(t.toolCalls).toEqual([
      { type: 'tool-call-end', id: 'toolu_a', name: 'read', input: { path: 'a.txt' } },
      { type: 'tool-call-end', id: 'toolu_b', name: 'read', input: { path: 'b.txt' } },
    ])
    const deltas = events.flatMap((e) => (e.type === 'tool-call-delta' && e.id === 'toolu_a' ? [e.argsDelta] : []))
    expect(deltas.join('')).toBe('{"path":"a.txt"}')
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls', rawReason: 'tool_use' })
  })

  it('streams thinking with its signature and sends it back as a thinking block', async () => {
    server.enqueue(
      { reasoning: 'Let me think.', signature: 'sig-123', toolCalls: [{ id: 'toolu_1', name: 'read', args: { path: 'x' } }] },
      { text: 'Done.' },
    )
    const registry = registryFor(server)
    const first = await collect(
      registry.stream({ model: MODEL, messages: [user('go')], tools, reasoning: { effort: 'low' } }),
    )
    const t = transcriptOf(first)
    expect(t.reasoning).toBe('Let me think.')
    expect(t.signatures).toEqual(['sig-123'])
    const firstBody = server.requests[0]?.body as Body
    expect(firstBody.thinking).toEqual({ type: 'enabled', budget_tokens: 4_000 })

    const history: ModelMessage[] = [
      user('go'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: t.reasoning, signature: 'sig-123', providerId: 'anthropic' },
          { type: 'tool-call', id: 'toolu_1', name: 'read', input: { path: 'x' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'read', output: 'contents' }] },
    ]
    const second = await collect(registry.stream({ model: MODEL, messages: history, tools, reasoning: { effort: 'low' } }))
    expect(transcriptOf(second).text).toBe('Done.')
    const body = server.requests[1]?.body as Body
    expect(body.messages[1]?.content[0]).toEqual({ type: 'thinking', thinking: 'Let me think.', signature: 'sig-123' })
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4_000 })
  })

  it('drops foreign reasoning and turns thinking off when the tool turn has no signed thinking', async () => {
    server.enqueue({ text: 'ok' })
    const history: ModelMessage[] = [
      user('go'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'deepseek thoughts', providerId: 'deepseek' },
          { type: 'tool-call', id: 'call_1', name: 'read', input: { path: 'x' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'read', output: 'contents' }] },
    ]
    await collect(registryFor(server).stream({ model: MODEL, messages: history, tools, reasoning: { effort: 'high' } }))
    const body = server.requests[0]?.body as Body
    expect(body.messages[1]?.content.map((b) => b.type)).toEqual(['tool_use'])
    expect(body.thinking).toBeUndefined()
  })

  it('sends prompt-caching breakpoints on the system prompt, the last tool and the last two user turns', async () => {
    server.enqueue({ text: 'ok' })
    const history: ModelMessage[] = [
      user('first'),
      { role: 'assistant', content: [{ type: 'tool-call', id: 'toolu_1', name: 'read', input: { path: 'x' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'read', output: 'contents' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'read it' }] },
      user('second'),
    ]
    await collect(
      registryFor(server).stream({ model: MODEL, system: ['You are Hotaru.', 'Env: linux'], messages: history, tools }),
    )
    const body = server.requests[0]?.body as Body
    const ephemeral = { type: 'ephemeral' }
    expect(body.system?.map((b) => b.cache_control)).toEqual([undefined, ephemeral])
    expect(body.tools?.map((t) => t.cache_control)).toEqual([undefined, ephemeral])
    const marks = body.messages.map((m) => m.content.map((b) => (b.cache_control ? 'C' : '-')).join(''))
    expect(marks).toEqual(['-', '-', 'C', '-', 'C'])
    expect(JSON.stringify(body).split('"cache_control"').length - 1).toBe(4)
  })

  it('maps tool-call ids the API would reject, consistently for the call and its result', async () => {
    server.enqueue({ text: 'ok' })
    const badId = 'functions.read:0'
    const history: ModelMessage[] = [
      user('go'),
      { role: 'assistant', content: [{ type: 'tool-call', id: badId, name: 'read', input: { path: 'x' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: badId, toolName: 'read', output: 'contents' }] },
    ]
    const events = await collect(registryFor(server).stream({ model: MODEL, messages: history, tools }))
    expect(transcriptOf(events).text).toBe('ok')
    const body = server.requests[0]?.body as Body
    const useId = body.messages[1]?.content[0]?.id as string
    expect(useId).toMatch(/^[a-zA-Z0-9_-]+$/)
    expect(body.messages[2]?.content[0]?.tool_use_id).toBe(useId)
  })

  it('removes empty text and merges tool results with the following user text', async () => {
    server.enqueue({ text: 'ok' })
    const history: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }, { type: 'text', text: '  ' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: '' },
          { type: 'tool-call', id: 'toolu_1', name: 'read', input: { path: 'x' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'read', output: '' }] },
      user('and then?'),
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
    ]
    await collect(registryFor(server).stream({ model: MODEL, messages: history, tools }))
    const body = server.requests[0]?.body as Body
    expect(body.messages.map((m) => [m.role, m.content.map((b) => b.type).join(',')])).toEqual([
      ['user', 'text'],
      ['assistant', 'tool_use'],
      ['user', 'tool_result,text'],
    ])
  })

  it('surfaces an unpaired transcript as ProviderBadRequest from the 400 the API returns', async () => {
    server.enqueue({ text: 'never sent' })
    const history: ModelMessage[] = [
      user('go'),
      { role: 'assistant', content: [{ type: 'tool-call', id: 'toolu_1', name: 'read', input: {} }] },
      user('no result in between'),
    ]
    const { error } = await collectUntilError(registryFor(server).stream({ model: MODEL, messages: history, tools }))
    expect(error?.name).toBe(ProviderErrorNames.ProviderBadRequest)
    expect(error?.data.status).toBe(400)
    expect(error?.message).toContain('`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1')
    // Not retried, and the turn stays queued.
    expect(server.requests).toHaveLength(1)
    expect(server.pending()).toBe(1)
  })

  it('surfaces a wrong key as ProviderAuth without retrying', async () => {
    server.enqueue({ text: 'never sent' })
    const registry = registryFor(server, {
      settings: { providers: { anthropic: { apiKey: 'wrong', baseURL: server.anthropicBaseURL } } },
    })
    const { error } = await collectUntilError(registry.stream({ model: MODEL, messages: [user('hi')] }))
    expect(error?.name).toBe(ProviderErrorNames.ProviderAuth)
    expect(error?.data.status).toBe(401)
    expect(server.requests).toHaveLength(1)
  })

  it('completes a non-streamed call (titles)', async () => {
    server.enqueue({ text: 'Fix the login bug', usage: { input: 50, output: 5 } })
    const completion = await registryFor(server).complete({ model: MODEL, messages: [user('title?')], maxTokens: 50 })
    expect(completion).toEqual({
      text: 'Fix the login bug',
      reasoning: '',
      toolCalls: [],
      usage: { input: 50, output: 5, cacheRead: 0, cacheWrite: 0 },
      finishReason: 'stop',
    })
    const body = server.requests[0]?.body as Body & { stream?: boolean }
    expect(body.stream).toBe(false)
    expect(body.max_tokens).toBe(50)
  })

  it('reads credentials from ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL first', async () => {
    server.enqueue({ text: 'env ok' })
    const registry = registryFor(server, {
      env: { ANTHROPIC_API_KEY: TEST_KEY, ANTHROPIC_BASE_URL: server.anthropicBaseURL },
      settings: { providers: { anthropic: { apiKey: 'config-key', baseURL: 'http://127.0.0.1:9' } } },
    })
    const events = await collect(registry.stream({ model: MODEL, messages: [user('hi')] }))
    expect(transcriptOf(events).text).toBe('env ok')
  })
})
