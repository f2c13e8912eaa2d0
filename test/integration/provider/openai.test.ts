import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type ModelMessage, ProviderErrorNames, type ToolDefinition } from '../../../src/main/core/provider'
import { type FakeLlm, startFakeLlm } from '../../fixtures/fake-llm'
import { TEST_KEY, collect, collectUntilError, connectionsOfConsecutiveStreams, registryFor, transcriptOf } from './helpers'

const MODEL = 'openai/gpt-4.1'
const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] })
const tools: ToolDefinition[] = [
  { name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
]

type Body = {
  messages: Array<Record<string, unknown>>
  tools?: unknown[]
  stream?: boolean
  stream_options?: { include_usage?: boolean }
  max_completion_tokens?: number
  max_tokens?: number
}

let server: FakeLlm
beforeEach(async () => {
  server = await startFakeLlm({ apiKey: TEST_KEY })
})
afterEach(async () => {
  await server.close()
})

describe('OpenAI provider through the real SDK', () => {
  it('streams text deltas, usage (cached tokens split out) and the finish reason', async () => {
    server.enqueue({ text: ['Hel', 'lo'], usage: { input: 80, output: 3, cacheRead: 20 } })
    const events = await collect(registryFor(server).stream({ model: MODEL, system: 'Be brief.', messages: [user('hi')] }))
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'usage', usage: { input: 80, output: 3, cacheRead: 20, cacheWrite: 0, reasoning: 0 } },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
    ])
    const request = server.requests[0]
    expect(request?.path).toBe('/v1/chat/completions')
    expect(request?.headers.authorization).toBe(`Bearer ${TEST_KEY}`)
    expect(request?.headers['x-stainless-retry-count']).toBe('0')
    const body = request?.body as Body
    expect(body.stream).toBe(true)
    expect(body.stream_options).toEqual({ include_usage: true })
    expect(body.max_completion_tokens).toBe(32_000)
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' })
  })

  it('sends consecutive requests over one connection (no new handshake per step)', async () => {
    expect(await connectionsOfConsecutiveStreams(server, MODEL, tools)).toEqual([1, 1, 1])
  })

  it('streams parallel tool calls by index and ends each one when the next begins', async () => {
    server.enqueue({
      toolCalls: [
        { id: 'call_a', name: 'read', args: { path: 'a.txt' } },
        { id: 'call_b', name: 'read', args: { path: 'b.txt' } },
      ],
    })
    const events = await collect(registryFor(server).stream({ model: MODEL, messages: [user('read both')], tools }))
    expect(events.filter((e) => e.type !== 'tool-call-delta').map((e) => e.type)).toEqual([
      'tool-call-start',
      'tool-call-end',
      'tool-call-start',
      'tool-call-end',
      'usage',
      'finish',
    ])
    expect(transcriptOf(events).toolCalls).toEqual([
      { type: 'tool-call-end', id: 'call_a', name: 'read', input: { path: 'a.txt' } },
      { type: 'tool-call-end', id: 'call_b', name: 'read', input: { path: 'b.txt' } },
    ])
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls', rawReason: 'tool_calls' })
  })

  it('sends a tool round trip in Chat Completions shape and maps over-long ids', async () => {
    server.enqueue({ text: 'done' })
    const longId = `toolu_${'x'.repeat(60)}`
    const history: ModelMessage[] = [
      user('go'),
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'reasoning', text: 'private', signature: 'sig', providerId: 'anthropic' },
          { type: 'tool-call', id: longId, name: 'read', input: { path: 'x' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: longId, toolName: 'read', output: 'contents' }] },
    ]
    const events = await collect(registryFor(server).stream({ model: MODEL, messages: history, tools }))
    expect(transcriptOf(events).text).toBe('done')
    const body = server.requests[0]?.body as Body
    const assistant = body.messages[1] as { content: string; tool_calls: Array<{ id: string; function: { arguments: string } }> }
    const id = assistant.tool_calls[0]?.id as string
    expect(id.length).toBeLessThanOrEqual(40)
    expect(assistant.content).toBe('Reading.')
    expect(assistant.tool_calls[0]?.function.arguments).toBe('{"path":"x"}')
    expect(JSON.stringify(body)).not.toContain('private')
    expect(body.messages[2]).toEqual({ role: 'tool', tool_call_id: id, content: 'contents' })
  })

  it('surfaces an unpaired transcript as ProviderBadRequest from the 400 the API returns', async () => {
    server.enqueue({ text: 'never sent' })
    const history: ModelMessage[] = [
      user('go'),
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_x', toolName: 'read', output: 'orphan' }] },
    ]
    const { error } = await collectUntilError(registryFor(server).stream({ model: MODEL, messages: history }))
    expect(error?.name).toBe(ProviderErrorNames.ProviderBadRequest)
    expect(error?.message).toContain("messages with role 'tool' must be a response to a preceeding message with 'tool_calls'")
    expect(server.pending()).toBe(1)
  })

  it('streams DeepSeek reasoning_content and sends it back in every later request of the session', async () => {
    server.enqueue(
      { reasoning: 'thinking hard', toolCalls: [{ id: 'call_1', name: 'read', args: { path: 'x' } }] },
      { text: 'answer' },
    )
    const registry = registryFor(server)
    const first = await collect(registry.stream({ model: 'deepseek/deepseek-reasoner', messages: [user('q')], tools }))
    const t = transcriptOf(first)
    expect(t.reasoning).toBe('thinking hard')
    const history: ModelMessage[] = [
      user('earlier'),
      { role: 'assistant', content: [{ type: 'reasoning', text: 'old turn', providerId: 'deepseek' }, { type: 'text', text: 'old' }] },
      // A turn another model answered with a tool call: DeepSeek still wants the field on it.
      user('before'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'claude thought', providerId: 'anthropic', signature: 'sig' },
          { type: 'tool-call', id: 'toolu_1', name: 'read', input: { path: 'y' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'read', output: 'y data' }] },
      user('q'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: t.reasoning, providerId: 'deepseek' },
          { type: 'tool-call', id: 'call_1', name: 'read', input: { path: 'x' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'read', output: 'data' }] },
    ]
    await collect(registry.stream({ model: 'deepseek/deepseek-reasoner', messages: history, tools }))
    const body = server.requests[1]?.body as Body
    expect(body.max_tokens).toBeDefined()
    expect(server.requests[1]?.status).toBe(200)
    expect(body.messages[1]).toMatchObject({ role: 'assistant', content: 'old', reasoning_content: 'old turn' })
    expect(body.messages[3]).toMatchObject({ role: 'assistant', reasoning_content: '' })
    expect(body.messages[6]).toMatchObject({ role: 'assistant', reasoning_content: 'thinking hard' })
  })

  it('completes a non-streamed call', async () => {
    server.enqueue({ text: 'A title', usage: { input: 10, output: 2 } })
    const completion = await registryFor(server).complete({ model: MODEL, messages: [user('title?')] })
    expect(completion.text).toBe('A title')
    expect(completion.usage).toEqual({ input: 10, output: 2, cacheRead: 0, cacheWrite: 0, reasoning: 0 })
    expect(completion.finishReason).toBe('stop')
  })

  it('talks to a configured OpenAI-compatible endpoint (ollama preset) without a key', async () => {
    const open = await startFakeLlm({ turns: [{ text: 'local' }] })
    try {
      const registry = registryFor(open, { settings: { providers: { ollama: { baseURL: open.openaiBaseURL } } } })
      const events = await collect(registry.stream({ model: 'ollama/qwen3:8b', messages: [user('hi')] }))
      expect(transcriptOf(events).text).toBe('local')
      expect((open.requests[0]?.body as { model: string }).model).toBe('qwen3:8b')
    } finally {
      await open.close()
    }
  })
})
