import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Anthropic from '@anthropic-ai/sdk'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AssistantAssembler, type ModelMessage, ProviderErrorNames, runWebSearch, type StreamEvent } from '../../../src/main/core/provider'
import { modelInfo } from '../../../src/main/core/provider/catalog'
import { parseModelId } from '../../../src/main/core/provider/model-id'
import { toAnthropicMessages } from '../../../src/main/core/provider/transform/anthropic-request'
import { type FakeLlm, startFakeLlm } from '../../fixtures/fake-llm'
import { TEST_KEY, collect, collectUntilError, registryFor } from './helpers'

const MODEL = 'anthropic/claude-sonnet-4-5'
const REPLAY = join(__dirname, '../../fixtures/replay/anthropic')
const recording = (name: string): unknown[] => (JSON.parse(readFileSync(join(REPLAY, name), 'utf8')) as { events: unknown[] }).events
const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] })

type Body = { tools?: Array<Record<string, unknown>>; messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }

let server: FakeLlm
beforeEach(async () => {
  server = await startFakeLlm({ apiKey: TEST_KEY })
})
afterEach(async () => {
  await server.close()
})

const blocksOf = (events: StreamEvent[]): Array<Record<string, unknown>> =>
  events.flatMap((e) => (e.type === 'provider-block' ? [e.block] : []))

describe('Anthropic web search through the real SDK', () => {
  it('sends the server tool with its limits and domain filter', async () => {
    server.enqueue({ text: 'ok' })
    await collect(
      registryFor(server).stream({
        model: MODEL,
        messages: [user('search')],
        serverTools: [{ type: 'web_search', maxUses: 3, allowedDomains: ['docs.python.org'], blockedDomains: ['ignored.example'] }],
      }),
    )
    const body = server.requests[0]?.body as Body
    expect(body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 3, allowed_domains: ['docs.python.org'], cache_control: { type: 'ephemeral' } },
    ])
  })

  it('maps a recorded search stream: the call, its results, cited spans and the answer', async () => {
    server.enqueue({ recorded: { anthropic: recording('web-search.stream.json') } })
    const events = await collect(registryFor(server).stream({ model: MODEL, messages: [user('tech news today?')], serverTools: [{ type: 'web_search' }] }))
    const blocks = blocksOf(events)
    expect(blocks.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result'])
    expect(blocks[0]).toMatchObject({ id: 'srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k', name: 'web_search', input: { query: 'tech news today September 26 2025' } })
    const results = blocks[1]?.content as Array<{ url: string; title: string }>
    expect(results.map((r) => r.url)).toContain('https://www.apple.com/newsroom/2025/09/the-all-new-apple-ginza-opens-this-friday-september-26-in-tokyo/')
    const citations = events.flatMap((e) => (e.type === 'citation' ? [e.citation] : []))
    expect(citations.length).toBeGreaterThan(5)
    expect(citations[0]).toMatchObject({ providerId: 'anthropic', url: expect.stringMatching(/^https:\/\//) })
    expect(citations[0]?.raw).toHaveProperty('encrypted_index')
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('')
    expect(text).toMatch(/^Based on my search results/)
    expect(text).toContain('Apple Ginza opens to customers Friday, September 26')
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop', rawReason: 'end_turn' })
  })

  it('sends a recorded answer back exactly as the SDK assembles it', async () => {
    // The SDK's own accumulator is the reference for what the API sent.
    server.enqueue({ recorded: { anthropic: recording('web-search.stream.json') } })
    const sdk = new Anthropic({ apiKey: TEST_KEY, baseURL: server.anthropicBaseURL })
    const reference = await sdk.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] }).finalMessage()

    server.enqueue({ recorded: { anthropic: recording('web-search.stream.json') } })
    const events = await collect(registryFor(server).stream({ model: MODEL, messages: [user('hi')], serverTools: [{ type: 'web_search' }] }))
    const assembler = new AssistantAssembler('anthropic')
    for (const event of events) assembler.handle(event)
    const [, assistant] = toAnthropicMessages([user('hi'), { role: 'assistant', content: assembler.content() }], modelInfo(parseModelId(MODEL)))
    // Exactly the API's blocks, except whitespace-only text between cited spans: a request may not carry blank text blocks.
    const expected = (JSON.parse(JSON.stringify(reference.content)) as Array<{ type: string; text?: string }>).filter(
      (b) => b.type !== 'text' || (b.text ?? '').trim() !== '',
    )
    expect(expected.length).toBe(reference.content.length - 2)
    expect(assistant?.content).toEqual(expected)
  })

  it('maps the error result and continues a paused turn with its blocks sent back as-is', async () => {
    server.enqueue({ recorded: { anthropic: recording('web-search-error-pause.stream.json') } })
    server.enqueue({ blocks: [{ type: 'web-search', query: 'claude shannon born', results: [{ title: 'Claude Shannon - Wikipedia', url: 'https://en.wikipedia.org/wiki/Claude_Shannon' }] }, { type: 'text', text: 'Claude Shannon was born on April 30, 1916.', citations: [{ url: 'https://en.wikipedia.org/wiki/Claude_Shannon', title: 'Claude Shannon - Wikipedia', citedText: 'Claude Elwood Shannon (April 30, 1916 – February 24, 2001)' }] }] })
    const progress: number[] = []
    const outcome = await runWebSearch(registryFor(server), 'anthropic', {
      model: MODEL,
      query: 'claude shannon birth date',
      onSearches: (runs) => progress.push(runs.length),
    })
    expect(outcome.continued).toBe(1)
    expect(outcome.paused).toBe(false)
    expect(outcome.searches).toEqual([
      { query: 'claude shannon birth date', results: [], error: 'too_many_requests' },
      { query: 'claude shannon born', results: [{ title: 'Claude Shannon - Wikipedia', url: 'https://en.wikipedia.org/wiki/Claude_Shannon' }] },
    ])
    expect(progress).toEqual([1, 2])
    expect(outcome.answer.map((p) => p.text).join('')).toBe('Claude Shannon was born on April 30, 1916.')
    expect(outcome.answer[0]?.citations?.[0]).toMatchObject({ url: 'https://en.wikipedia.org/wiki/Claude_Shannon', citedText: expect.stringContaining('April 30, 1916') })

    // The continuation ends with the paused assistant turn, its server blocks exactly as recorded.
    const recorded = recording('web-search-error-pause.stream.json') as Array<{ type: string; content_block?: Record<string, unknown> }>
    const continuation = server.requests[1]?.body as Body
    expect(continuation.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(continuation.messages[1]?.content).toEqual([
      { type: 'server_tool_use', id: 'srvtoolu_014hJH82Qum7Td6UV8gDXThB', name: 'web_search', input: { query: 'claude shannon birth date' } },
      recorded.find((e) => e.content_block?.type === 'web_search_tool_result')?.content_block,
    ])
    expect(continuation.tools).toEqual((server.requests[0]?.body as Body).tools)
  })

  it('refuses a server tool on an endpoint without one, before anything is sent', async () => {
    const { error } = await collectUntilError(
      registryFor(server).stream({ model: 'openai/gpt-4.1', messages: [user('x')], serverTools: [{ type: 'web_search' }] }),
    )
    expect(error?.name).toBe(ProviderErrorNames.ProviderBadRequest)
    expect(error?.data.message).toContain('no server-side web search')
    expect(server.requests).toHaveLength(0)
  })
})

describe('OpenAI Responses web search through the real SDK', () => {
  const RESPONSES_MODEL = 'openai/gpt-5-codex'
  const openaiRecording = (): unknown[] =>
    (JSON.parse(readFileSync(join(__dirname, '../../fixtures/replay/openai/web-search.stream.json'), 'utf8')) as { events: unknown[] }).events

  it('sends web_search with its domain filter and asks for the sources', async () => {
    expect(registryFor(server).webSearchApi(RESPONSES_MODEL)).toBe('openai-responses')
    expect(registryFor(server).webSearchApi('openai/gpt-4.1')).toBeUndefined()
    server.enqueue({ text: 'ok' })
    await collect(registryFor(server).stream({ model: RESPONSES_MODEL, messages: [user('search')], serverTools: [{ type: 'web_search', allowedDomains: ['docs.python.org'] }] }))
    const body = server.requests[0]?.body as { tools?: unknown[]; include?: string[] }
    expect(body.tools).toEqual([{ type: 'web_search', filters: { allowed_domains: ['docs.python.org'] } }])
    expect(body.include).toContain('web_search_call.action.sources')
  })

  it('maps a recorded search: each web_search_call whole, the answer and its url_citation sources', async () => {
    server.enqueue({ recorded: { responses: openaiRecording() } })
    const outcome = await runWebSearch(registryFor(server), 'openai', { model: RESPONSES_MODEL, query: 'tech news today' })
    // Two searches; opening and searching within pages are reading, not searches.
    expect(outcome.searches.map((s) => s.query)).toEqual(['tech news today December 5 2025', 'site:theverge.com "December 5, 2025" "technology"'])
    expect(outcome.searches[0]?.results[0]).toEqual({ url: 'https://www.wired.com/story/the-big-interview-2025-recap', title: 'https://www.wired.com/story/the-big-interview-2025-recap' })
    const text = outcome.answer.map((p) => p.text).join('')
    expect(text).toMatch(/^I checked today’s tech headlines/)
    const citations = outcome.answer.flatMap((p) => p.citations ?? [])
    expect(citations).toHaveLength(12)
    expect(citations[0]).toMatchObject({
      providerId: 'openai',
      url: 'https://techcrunch.com/2025/12/05/petco-confirms-security-lapse-exposed-customers-personal-data/?utm_source=openai',
      title: 'Petco confirms security lapse exposed customers’ personal data | TechCrunch',
    })
    expect(text.slice(277, 411)).toBe(citations[0]?.citedText)
  })
})
