import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type ModelMessage, ProviderErrorNames, type ToolDefinition } from '../../../src/main/core/provider'
import { type FakeLlm, startFakeLlm } from '../../fixtures/fake-llm'
import { DEFAULT_STALL_TIMEOUT_MS } from '../../../src/main/core/provider/provider-registry'
import { collect, collectUntilError, registryFor, settingsFor, transcriptOf } from './helpers'

const ANTHROPIC = 'anthropic/claude-haiku-4-5'
const OPENAI = 'openai/gpt-4.1'
const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] })
const messages = [user('go')]
const tools: ToolDefinition[] = [{ name: 'read', description: 'Read a file', inputSchema: { type: 'object' } }]

/** Records requested waits and resolves at once. */
function recordingSleep(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = []
  return { delays, sleep: async (ms) => void delays.push(ms) }
}

let server: FakeLlm
beforeEach(async () => {
  server = await startFakeLlm()
})
afterEach(async () => {
  await server.close()
})

describe.each([
  ['anthropic', ANTHROPIC],
  ['openai', OPENAI],
])('retries through the %s SDK', (_api, model) => {
  it('honours retry-after-ms on a 429, announcing the retry before waiting', async () => {
    server.enqueue({ fault: { type: 'http', status: 429, retryAfterMs: 150 } }, { text: 'recovered' })
    const registry = registryFor(server, { retry: { delayScale: 1 } })
    const events = await collect(registry.stream({ model, messages }))
    expect(events[0]).toMatchObject({ type: 'retry', attempt: 1, delayMs: 150, error: { name: ProviderErrorNames.ProviderRateLimit } })
    expect(transcriptOf(events).text).toBe('recovered')
    const [first, second] = server.requests
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(140)
  })

  it('honours retry-after in seconds', async () => {
    server.enqueue({ fault: { type: 'http', status: 429, retryAfter: 3 } }, { text: 'ok' })
    const { delays, sleep } = recordingSleep()
    const events = await collect(registryFor(server, { retry: { sleep, delayScale: 1 } }).stream({ model, messages }))
    expect(delays).toEqual([3_000])
    expect(events[0]).toMatchObject({ type: 'retry', delayMs: 3_000 })
  })

  it('backs off 2 s, 4 s, 8 s on 5xx without retry-after, then gives up after maxRetries', async () => {
    for (let i = 0; i < 4; i++) server.enqueue({ fault: { type: 'http', status: 500 } })
    const { delays, sleep } = recordingSleep()
    const registry = registryFor(server, { retry: { sleep, delayScale: 1, maxRetries: 3 } })
    const { events, error } = await collectUntilError(registry.stream({ model, messages }))
    expect(delays).toEqual([2_000, 4_000, 8_000])
    expect(events.map((e) => (e.type === 'retry' ? e.attempt : e.type))).toEqual([1, 2, 3])
    expect(error?.name).toBe(ProviderErrorNames.ProviderServer)
    expect(error?.data.attempts).toBe(4)
    expect(server.requests).toHaveLength(4)
  })

  it('retries a 529 overloaded answer', async () => {
    server.enqueue({ fault: { type: 'http', status: 529 } }, { text: 'ok' })
    const events = await collect(registryFor(server).stream({ model, messages }))
    expect(events[0]).toMatchObject({ type: 'retry', error: { name: ProviderErrorNames.ProviderOverloaded } })
    expect(transcriptOf(events).text).toBe('ok')
  })

  it('gives up at once when retry-after exceeds what we are willing to wait', async () => {
    server.enqueue({ fault: { type: 'http', status: 429, retryAfter: 3_600 } }, { text: 'never' })
    const { error } = await collectUntilError(registryFor(server).stream({ model, messages }))
    expect(error?.name).toBe(ProviderErrorNames.ProviderRateLimit)
    expect(error?.data.retryAfterMs).toBe(3_600_000)
    expect(server.requests).toHaveLength(1)
  })

  it('retries a connection dropped before any output without a reset', async () => {
    server.enqueue({ text: 'lost', fault: { type: 'drop', afterEvents: 1 } }, { text: 'second try' })
    const events = await collect(registryFor(server).stream({ model, messages }))
    expect(events.some((e) => e.type === 'attempt-reset')).toBe(false)
    expect(events[0]).toMatchObject({ type: 'retry', error: { name: ProviderErrorNames.ProviderStreamInterrupted } })
    expect(transcriptOf(events).text).toBe('second try')
  })

  it('resets the partial attempt before retrying a connection dropped mid-text: no duplicated text', async () => {
    const afterEvents = model === ANTHROPIC ? 4 : 2 // headers + the first text delta
    server.enqueue({ text: ['Hello ', 'wor', 'ld'], fault: { type: 'drop', afterEvents } }, { text: ['Hello ', 'world'] })
    const events = await collect(registryFor(server).stream({ model, messages }))
    const types = events.map((e) => e.type)
    expect(types.slice(0, 3)).toEqual(['text-delta', 'attempt-reset', 'retry'])
    const t = transcriptOf(events)
    expect(t.text).toBe('Hello world')
    expect(t.resets).toBe(1)
  })

  it('fails with ProviderStreamInterrupted (no retry) when the drop follows a completed tool call', async () => {
    // Anthropic: message_start, start, ping, 4 deltas, stop = 8; OpenAI: start + 3 argument chunks, then the next call.
    const afterEvents = model === ANTHROPIC ? 8 : 5
    server.enqueue(
      {
        toolCalls: [
          { id: 'call_1', name: 'read', args: { path: 'a' } },
          { id: 'call_2', name: 'read', args: { path: 'b' } },
        ],
        fault: { type: 'drop', afterEvents },
      },
      { text: 'never' },
    )
    const { events, error } = await collectUntilError(registryFor(server).stream({ model, messages, tools }))
    expect(transcriptOf(events).toolCalls.map((c) => c.id)).toEqual(['call_1'])
    expect(error?.name).toBe(ProviderErrorNames.ProviderStreamInterrupted)
    expect(error?.data).toMatchObject({ retryable: false, partial: true })
    expect(server.requests).toHaveLength(1)
  })

  it('reports malformed tool JSON as inputError and finishes the stream', async () => {
    server.enqueue({
      toolCalls: [
        { id: 'call_bad', name: 'read', rawArgs: '{"path": "a.txt"' },
        { id: 'call_ok', name: 'read', args: { path: 'b.txt' } },
      ],
    })
    const events = await collect(registryFor(server).stream({ model, messages, tools }))
    const [bad, ok] = transcriptOf(events).toolCalls
    expect(bad).toMatchObject({ id: 'call_bad', inputError: { raw: '{"path": "a.txt"' } })
    expect(bad && 'inputError' in bad ? bad.inputError.message : '').not.toBe('')
    expect(ok).toEqual({ type: 'tool-call-end', id: 'call_ok', name: 'read', input: { path: 'b.txt' } })
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'tool_calls' })
  })

  it('stops promptly on abort mid-stream, without retrying', async () => {
    server.enqueue({ text: 'one two three four five six', dripMs: 300 }, { text: 'never' })
    const controller = new AbortController()
    const stream = registryFor(server).stream({ model, messages, signal: controller.signal })
    const seen: string[] = []
    let abortedAt = 0
    const { error } = await collectUntilError(
      (async function* () {
        for await (const event of stream) {
          yield event
          if (event.type === 'text-delta') {
            seen.push(event.text)
            abortedAt = Date.now()
            controller.abort()
          }
        }
      })(),
    )
    expect(error?.name).toBe(ProviderErrorNames.Aborted)
    expect(Date.now() - abortedAt).toBeLessThan(200)
    expect(seen).toEqual(['one '])
    expect(server.requests).toHaveLength(1)
  })

  it('stops promptly on abort during a retry wait', async () => {
    server.enqueue({ fault: { type: 'http', status: 429, retryAfter: 10 } }, { text: 'never' })
    const controller = new AbortController()
    const registry = registryFor(server, { retry: { delayScale: 1 } })
    const started = Date.now()
    const { events, error } = await collectUntilError(
      (async function* () {
        for await (const event of registry.stream({ model, messages, signal: controller.signal })) {
          yield event
          if (event.type === 'retry') setTimeout(() => controller.abort(), 20)
        }
      })(),
    )
    expect(events.map((e) => e.type)).toEqual(['retry'])
    expect(error?.name).toBe(ProviderErrorNames.Aborted)
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(server.requests).toHaveLength(1)
  })
})

describe('mid-stream provider errors', () => {
  it('retries an Anthropic overloaded_error event that arrives inside the stream', async () => {
    server.enqueue({ text: ['partial ', 'text'], fault: { type: 'stream-error', afterEvents: 4 } }, { text: 'full answer' })
    const events = await collect(registryFor(server).stream({ model: ANTHROPIC, messages }))
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ error: { name: ProviderErrorNames.ProviderOverloaded } })
    expect(transcriptOf(events).text).toBe('full answer')
  })

  it('retries an OpenAI error chunk that arrives inside the stream', async () => {
    server.enqueue({ text: ['partial ', 'text'], fault: { type: 'stream-error', afterEvents: 2 } }, { text: 'full answer' })
    const events = await collect(registryFor(server).stream({ model: OPENAI, messages }))
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ error: { name: ProviderErrorNames.ProviderServer } })
    expect(transcriptOf(events).text).toBe('full answer')
  })

  it.each([ANTHROPIC, OPENAI])('retries a stream that stalls longer than the idle timeout (%s)', async (model) => {
    server.enqueue({ text: ['stalled ', 'text'], dripMs: 1_000 }, { text: 'fresh' })
    const registry = registryFor(server, { idleTimeoutMs: 150 })
    const started = Date.now()
    const events = await collect(registry.stream({ model, messages }))
    expect(Date.now() - started).toBeLessThan(900)
    const retry = events.find((e) => e.type === 'retry')
    expect(retry).toMatchObject({ error: { name: ProviderErrorNames.ProviderStreamInterrupted } })
    expect(retry?.type === 'retry' ? retry.error.data.message : '').toContain('no data for 150 ms')
    expect(transcriptOf(events).text).toBe('fresh')
  })

  it.each([ANTHROPIC, OPENAI])('takes its stall timeout from the config key stallTimeoutMs, 60 s by default (%s)', async (model) => {
    expect(DEFAULT_STALL_TIMEOUT_MS).toBeLessThanOrEqual(60_000)
    server.enqueue({ text: ['stalled ', 'text'], dripMs: 1_000 }, { text: 'fresh' })
    const { delays, sleep } = recordingSleep()
    const registry = registryFor(server, { retry: { sleep, delayScale: 1 } })
    const events: string[] = []
    for await (const event of registry.stream({ model, messages, settings: { ...settingsFor(server), stallTimeoutMs: 200 } })) {
      // The retry is announced before its backoff wait starts.
      if (event.type === 'retry') events.push(`retry after ${delays.length} waits: ${event.error.data.message}`)
    }
    expect(events).toEqual([expect.stringMatching(/^retry after 0 waits: .*no data for 200 ms/)])
  })

  it.each([ANTHROPIC, OPENAI])('names an HTML page answered with status 200 at once, without retrying (%s)', async (model) => {
    server.enqueue({ fault: { type: 'html' } }, { text: 'never reached' })
    const { delays, sleep } = recordingSleep()
    const registry = registryFor(server, { retry: { sleep, delayScale: 1 } })
    const { events, error } = await collectUntilError(registry.stream({ model, messages }))
    expect(events.filter((e) => e.type === 'retry')).toEqual([])
    expect(delays).toEqual([])
    expect(error?.name).toBe(ProviderErrorNames.ProviderBadResponse)
    expect(error?.data.message).toMatch(/answered 200 with an HTML page, not an event stream/)
    expect(server.requests).toHaveLength(1)
  })

  it('a slow drip is not a failure', async () => {
    server.enqueue({ text: ['a', 'b', 'c'], dripMs: 40 })
    const events = await collect(registryFor(server).stream({ model: OPENAI, messages }))
    expect(transcriptOf(events)).toMatchObject({ text: 'abc', retries: 0 })
  })

  it('reports an unreachable server as ProviderConnection after retrying', async () => {
    const closed = await startFakeLlm()
    const url = closed.openaiBaseURL
    await closed.close()
    const { delays, sleep } = recordingSleep()
    const registry = registryFor(server, {
      settings: { providers: { openai: { apiKey: 'k', baseURL: url } } },
      retry: { sleep, maxRetries: 2 },
    })
    const { events, error } = await collectUntilError(registry.stream({ model: OPENAI, messages }))
    expect(error?.name).toBe(ProviderErrorNames.ProviderConnection)
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2)
    expect(delays).toHaveLength(2)
  })
})
