import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type ModelMessage, ProviderErrorNames, type ReasoningPart, type StreamEvent, type ToolDefinition } from '../../../src/main/core/provider'
import { type FakeLlm, startFakeLlm } from '../../fixtures/fake-llm'
import { TEST_KEY, collect, collectUntilError, registryFor, settingsFor, transcriptOf } from './helpers'

const CODEX = 'openai/gpt-5-codex'
const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] })
const tools: ToolDefinition[] = [
  { name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
]

type Item = Record<string, unknown>
type Body = {
  model: string
  input: Item[]
  instructions?: string
  tools?: Item[]
  stream?: boolean
  store?: boolean
  include?: string[]
  reasoning?: { effort?: string; summary?: string }
  max_output_tokens?: number
  prompt_cache_key?: string
  temperature?: number
  messages?: unknown
}

const bodyOf = (server: FakeLlm, index: number): Body => server.requests[index]?.body as Body

/** The reasoning part a consumer stores from a stream: text plus the item the closing delta carries. */
function reasoningPartOf(events: StreamEvent[]): ReasoningPart {
  const part: ReasoningPart = { type: 'reasoning', text: '', providerId: 'openai' }
  for (const event of events) {
    if (event.type !== 'reasoning-delta') continue
    part.text += event.text
    if (event.encryptedContent) Object.assign(part, { itemId: event.itemId, encryptedContent: event.encryptedContent, summary: event.summary })
  }
  return part
}

let server: FakeLlm
beforeEach(async () => {
  server = await startFakeLlm({ apiKey: TEST_KEY })
})
afterEach(async () => {
  await server.close()
})

describe('OpenAI Responses API through the real SDK', () => {
  it('a codex model streams reasoning, text, usage with cached and reasoning tokens, and the finish', async () => {
    server.enqueue({ api: 'responses', reasoning: 'Thinking it over.', text: ['Hel', 'lo'], usage: { input: 80, output: 30, cacheRead: 20, reasoning: 24 } })
    const events = await collect(
      registryFor(server).stream({
        model: CODEX,
        system: ['Be brief.', 'Project facts.'],
        messages: [user('hi')],
        reasoning: { effort: 'high' },
        temperature: 0.2,
        cacheKey: 'ses_123',
      }),
    )
    const transcript = transcriptOf(events)
    expect(transcript.text).toBe('Hello')
    expect(transcript.reasoning).toBe('Thinking it over.')
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { input: 80, output: 30, cacheRead: 20, cacheWrite: 0, reasoning: 24 } },
      { type: 'finish', reason: 'stop', rawReason: 'completed' },
    ])
    const request = server.requests[0]
    expect(request?.path).toBe('/v1/responses')
    expect(request?.headers.authorization).toBe(`Bearer ${TEST_KEY}`)
    const body = bodyOf(server, 0)
    expect(body).toMatchObject({
      model: 'gpt-5-codex',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'high', summary: 'auto' },
      instructions: 'Be brief.\n\nProject facts.',
      prompt_cache_key: 'ses_123',
      max_output_tokens: 32_000,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
    })
    // Reasoning models reject sampling parameters.
    expect(body.temperature).toBeUndefined()
  })

  it('ends each function call as soon as its arguments are done, before the next one starts', async () => {
    server.enqueue({
      api: 'responses',
      toolCalls: [
        { id: 'call_a', name: 'read', args: { path: 'a.txt' } },
        { id: 'call_b', name: 'read', args: { path: 'b.txt' } },
      ],
    })
    const events = await collect(registryFor(server).stream({ model: CODEX, messages: [user('read both')], tools }))
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
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls', rawReason: 'completed' })
    expect(bodyOf(server, 0).tools).toEqual([
      { type: 'function', name: 'read', description: 'Read a file', parameters: tools[0]?.inputSchema, strict: false },
    ])
  })

  it('sends the reasoning item, the call and its output back on the next request, which the server accepts', async () => {
    const registry = registryFor(server)
    server.enqueue({ api: 'responses', reasoning: 'I should read a.txt.', toolCalls: [{ id: 'call_r1', name: 'read', args: { path: 'a.txt' } }] })
    const first = await collect(registry.stream({ model: CODEX, messages: [user('what is in a.txt?')], tools }))
    const reasoning = reasoningPartOf(first)
    expect(reasoning.itemId).toMatch(/^rs_/)
    expect(reasoning.encryptedContent).toMatch(/^gAAAAA/)
    expect(reasoning.summary).toEqual(['I should read a.txt.'])

    server.enqueue({ api: 'responses', text: 'It says hello.' })
    const history: ModelMessage[] = [
      user('what is in a.txt?'),
      { role: 'assistant', content: [reasoning, { type: 'tool-call', id: 'call_r1', name: 'read', input: { path: 'a.txt' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_r1', toolName: 'read', output: 'hello' }] },
    ]
    const second = await collect(registry.stream({ model: CODEX, messages: history, tools }))
    expect(transcriptOf(second).text).toBe('It says hello.')
    expect(server.requests[1]?.status).toBe(200)
    expect(bodyOf(server, 1).input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'what is in a.txt?' }] },
      {
        type: 'reasoning',
        id: reasoning.itemId,
        summary: [{ type: 'summary_text', text: 'I should read a.txt.' }],
        encrypted_content: reasoning.encryptedContent,
      },
      { type: 'function_call', call_id: 'call_r1', name: 'read', arguments: '{"path":"a.txt"}' },
      { type: 'function_call_output', call_id: 'call_r1', output: 'hello' },
    ])
  })

  it('drops reasoning of another provider and reasoning without its encrypted item', async () => {
    server.enqueue({ api: 'responses', text: 'ok' })
    const history: ModelMessage[] = [
      user('one'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Claude thought.', signature: 'sig', providerId: 'anthropic' },
          { type: 'reasoning', text: 'Stored elsewhere.', itemId: 'rs_x', encryptedContent: 'gAAAAABforeign', providerId: 'azure' },
          { type: 'reasoning', text: 'Summary only.', providerId: 'openai' },
          { type: 'text', text: 'Answer one.' },
        ],
      },
      user('two'),
    ]
    await collect(registryFor(server).stream({ model: CODEX, messages: history }))
    expect(bodyOf(server, 0).input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one' }] },
      { type: 'message', role: 'assistant', content: 'Answer one.' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'two' }] },
    ])
  })

  it('a reasoning item whose encrypted content the server did not issue is a 400 with the API message', async () => {
    server.enqueue({ api: 'responses', text: 'never' })
    const history: ModelMessage[] = [
      user('one'),
      { role: 'assistant', content: [{ type: 'reasoning', text: '', itemId: 'rs_forged', encryptedContent: 'gAAAAABforged', providerId: 'openai' }, { type: 'text', text: 'a' }] },
      user('two'),
    ]
    const { error } = await collectUntilError(registryFor(server).stream({ model: CODEX, messages: history }))
    expect(error?.name).toBe(ProviderErrorNames.ProviderBadRequest)
    expect(error?.message).toContain('The encrypted content for item rs_forged could not be verified')
    expect(server.pending()).toBe(1)
  })

  it('a reasoning item is sent only with the output it led to; the server refuses one on its own', async () => {
    const registry = registryFor(server)
    server.enqueue({ api: 'responses', reasoning: 'Hmm.', text: ' ' })
    const reasoning = reasoningPartOf(await collect(registry.stream({ model: CODEX, messages: [user('one')] })))
    expect(reasoning.encryptedContent).toBeDefined()

    // The blank answer is dropped before sending, and its reasoning with it.
    server.enqueue({ api: 'responses', text: 'ok' })
    await collect(registry.stream({ model: CODEX, messages: [user('one'), { role: 'assistant', content: [reasoning, { type: 'text', text: ' ' }] }, user('two')] }))
    expect(bodyOf(server, 1).input.map((item) => item.type)).toEqual(['message', 'message'])

    const lone = { type: 'reasoning', id: reasoning.itemId, summary: [], encrypted_content: reasoning.encryptedContent }
    const answer = await fetch(`${server.openaiBaseURL}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5-codex', store: false, input: [{ role: 'user', content: 'one' }, lone, { role: 'user', content: 'two' }] }),
    })
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({
      error: { message: `Item '${reasoning.itemId}' of type 'reasoning' was provided without its required following item.`, type: 'invalid_request_error', param: 'input', code: null },
    })
  })

  it('an output whose call is not in the input is refused as the real API does', async () => {
    server.enqueue({ api: 'responses', text: 'never' })
    const history: ModelMessage[] = [user('go'), { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_orphan', toolName: 'read', output: 'x' }] }]
    const { error } = await collectUntilError(registryFor(server).stream({ model: CODEX, messages: history }))
    expect(error?.name).toBe(ProviderErrorNames.ProviderBadRequest)
    expect(error?.message).toBe('openai: 400 No tool call found for function call output with call_id call_orphan.')
  })

  it('an incomplete response reports why it stopped: output limit as length, content filter as such', async () => {
    server.enqueue({ api: 'responses', text: 'Cut', stopReason: 'max_output_tokens' }, { api: 'responses', text: 'Hm', stopReason: 'content_filter' })
    const registry = registryFor(server)
    const length = await collect(registry.stream({ model: CODEX, messages: [user('long')], maxTokens: 5 }))
    expect(length.at(-1)).toEqual({ type: 'finish', reason: 'length', rawReason: 'max_output_tokens' })
    expect(bodyOf(server, 0).max_output_tokens).toBe(5)
    const filtered = await collect(registry.stream({ model: CODEX, messages: [user('bad')] }))
    expect(filtered.at(-1)).toEqual({ type: 'finish', reason: 'content_filter', rawReason: 'content_filter' })
  })

  it('retries a server error event mid-stream after resetting the partial output', async () => {
    server.enqueue({ api: 'responses', text: 'partial answer', fault: { type: 'stream-error', afterEvents: 6 } }, { api: 'responses', text: 'whole answer' })
    const events = await collect(registryFor(server).stream({ model: CODEX, messages: [user('hi')] }))
    const transcript = transcriptOf(events)
    expect(transcript.retries).toBe(1)
    expect(transcript.resets).toBe(1)
    expect(transcript.text).toBe('whole answer')
  })

  it('retries a 429 and honours retry-after-ms', async () => {
    server.enqueue({ api: 'responses', fault: { type: 'http', status: 429, retryAfterMs: 5 } }, { api: 'responses', text: 'ok' })
    const events = await collect(registryFor(server).stream({ model: CODEX, messages: [user('hi')] }))
    const retry = events.find((e) => e.type === 'retry')
    expect(retry?.type === 'retry' && retry.error.name).toBe(ProviderErrorNames.ProviderRateLimit)
    expect(transcriptOf(events).text).toBe('ok')
  })

  it('complete() reads a non-streamed response: text, reasoning, calls, usage', async () => {
    server.enqueue({ api: 'responses', reasoning: 'Short.', text: 'Title here', toolCalls: [{ id: 'call_t', name: 'read', args: { path: 'x' } }], usage: { input: 10, output: 4, cacheRead: 6, reasoning: 2 } })
    const completion = await registryFor(server).complete({ model: CODEX, messages: [user('title?')], tools })
    expect(completion).toEqual({
      text: 'Title here',
      reasoning: 'Short.',
      toolCalls: [{ type: 'tool-call-end', id: 'call_t', name: 'read', input: { path: 'x' } }],
      usage: { input: 10, output: 4, cacheRead: 6, cacheWrite: 0, reasoning: 2 },
      finishReason: 'tool_calls',
    })
    expect(bodyOf(server, 0).stream).toBe(false)
  })

  it('the catalog picks the API per model, and a provider setting overrides it both ways', async () => {
    const base = settingsFor(server)
    server.enqueue({ api: 'chat', text: 'chat' }, { api: 'chat', text: 'forced chat' }, { api: 'responses', text: 'compatible responses' })
    await collect(registryFor(server).stream({ model: 'openai/gpt-4.1', messages: [user('a')], cacheKey: 'ses_9' }))
    expect(server.requests[0]?.path).toBe('/v1/chat/completions')
    // OpenAI's own Chat Completions takes the cache key too.
    expect((server.requests[0]?.body as { prompt_cache_key?: string }).prompt_cache_key).toBe('ses_9')

    const openaiChat = { ...base, providers: { ...base.providers, openai: { ...base.providers?.openai, api: 'chat' as const } } }
    await collect(registryFor(server, { settings: openaiChat }).stream({ model: CODEX, messages: [user('b')] }))
    expect(server.requests[1]?.path).toBe('/v1/chat/completions')

    const compatible = { providers: { local: { baseURL: server.openaiBaseURL, apiKey: TEST_KEY, api: 'responses' as const } } }
    const events = await collect(registryFor(server, { settings: compatible }).stream({ model: 'local/any-model', messages: [user('c')], temperature: 0.3, cacheKey: 'ses_9' }))
    expect(transcriptOf(events).text).toBe('compatible responses')
    expect(server.requests[2]?.path).toBe('/v1/responses')
    const body = bodyOf(server, 2)
    // Not a reasoning model: temperature goes, reasoning does not.
    expect(body.temperature).toBe(0.3)
    expect(body.reasoning).toBeUndefined()
    expect(body.include).toBeUndefined()
  })

  it('a scripted turn for another API is refused and stays queued', async () => {
    server.enqueue({ api: 'chat', text: 'chat only' })
    const { error } = await collectUntilError(registryFor(server).stream({ model: CODEX, messages: [user('hi')] }))
    expect(error?.message).toContain('the next turn answers the chat API, but the request came on responses')
    expect(server.pending()).toBe(1)
  })
})
