import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { describe, expect, it } from 'vitest'
import type { HotaruError } from '@shared/errors'
import { mapResponsesStream } from '../../../src/main/core/provider/adapters/responses-stream'
import { ProviderErrorNames, type StreamEvent } from '../../../src/main/core/provider'

/** Recorded Responses API streams (see test/fixtures/replay/openai-responses/README.md) through the stream mapper. */

const DIR = join(__dirname, '../../fixtures/replay/openai-responses')
const ctx = { providerId: 'openai', model: 'gpt-5.1-codex-max' }

function recording(name: string): ResponseStreamEvent[] {
  return readFileSync(join(DIR, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as ResponseStreamEvent)
}

async function* replay(events: ResponseStreamEvent[]): AsyncGenerator<ResponseStreamEvent> {
  for (const event of events) yield event
}

async function map(events: ResponseStreamEvent[]): Promise<{ events: StreamEvent[]; error?: HotaruError }> {
  const out: StreamEvent[] = []
  try {
    for await (const event of mapResponsesStream(replay(events), ctx, undefined)) out.push(event)
  } catch (error) {
    return { events: out, error: error as HotaruError }
  }
  return { events: out }
}

const reasoningText = (events: StreamEvent[]): string =>
  events.flatMap((e) => (e.type === 'reasoning-delta' ? [e.text] : [])).join('')

describe('recorded Responses streams through the mapper', () => {
  it('gpt-5.1-codex-max: streams the reasoning summary, ends it with its encrypted item, then the call, usage and finish', async () => {
    const raw = recording('gpt-5.1-codex-max-calculator.1.jsonl')
    const { events, error } = await map(raw)
    expect(error).toBeUndefined()
    const reasoningDone = raw.find((e) => e.type === 'response.output_item.done' && e.item.type === 'reasoning')
    if (reasoningDone?.type !== 'response.output_item.done' || reasoningDone.item.type !== 'reasoning') throw new Error('no reasoning item')
    const summary = reasoningDone.item.summary.map((s) => s.text)
    expect(reasoningText(events)).toBe(summary.join(''))
    const end = events.find((e) => e.type === 'reasoning-delta' && e.encryptedContent)
    expect(end).toEqual({
      type: 'reasoning-delta',
      text: '',
      itemId: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
      encryptedContent: reasoningDone.item.encrypted_content,
      summary,
    })
    // The encrypted item ends the reasoning part before the call starts.
    const types = events.filter((e) => e.type !== 'reasoning-delta' && e.type !== 'tool-call-delta').map((e) => e.type)
    expect(types).toEqual(['tool-call-start', 'tool-call-end', 'usage', 'finish'])
    expect(events.indexOf(end as StreamEvent)).toBeLessThan(events.findIndex((e) => e.type === 'tool-call-start'))
    expect(events.filter((e) => e.type === 'tool-call-start')).toEqual([{ type: 'tool-call-start', id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', name: 'calculator' }])
    const deltas = events.flatMap((e) => (e.type === 'tool-call-delta' ? [e.argsDelta] : [])).join('')
    expect(deltas).toBe('{"a":12,"b":7,"op":"add"}')
    expect(events.slice(-3)).toEqual([
      { type: 'tool-call-end', id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', name: 'calculator', input: { a: 12, b: 7, op: 'add' } },
      { type: 'usage', usage: { input: 134, output: 28, cacheRead: 0, cacheWrite: 0, reasoning: 0 } },
      { type: 'finish', reason: 'tool_calls', rawReason: 'completed' },
    ])
  })

  it('gpt-5.1-codex-max: the later turns of the loop are a call each, then the final text', async () => {
    const second = await map(recording('gpt-5.1-codex-max-calculator.2.jsonl'))
    expect(second.events.filter((e) => e.type === 'tool-call-end')).toEqual([
      { type: 'tool-call-end', id: 'call_Q6pW65MUgW9vF59BmItYGos3', name: 'calculator', input: { a: 19, b: 3, op: 'multiply' } },
    ])
    const third = await map(recording('gpt-5.1-codex-max-calculator.3.jsonl'))
    expect(third.events.filter((e) => e.type === 'tool-call-end')).toEqual([
      { type: 'tool-call-end', id: 'call_Zl5vIMnD7dVAjgU6FkhmiCZh', name: 'calculator', input: { a: 57, b: 10, op: 'multiply' } },
    ])
    const last = await map(recording('gpt-5.1-codex-max-calculator.4.jsonl'))
    expect(last.events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('')).toBe('The final result is **570**.')
    expect(last.events.slice(-2)).toEqual([
      { type: 'usage', usage: { input: 299, output: 12, cacheRead: 0, cacheWrite: 0, reasoning: 0 } },
      { type: 'finish', reason: 'stop', rawReason: 'completed' },
    ])
  })

  it('multi-part summary: parts are joined as paragraphs, kept apart in the item, reasoning tokens counted', async () => {
    const raw = recording('azure-gpt-5-multi-summary.jsonl')
    const { events, error } = await map(raw)
    expect(error).toBeUndefined()
    const parts = raw.flatMap((e) => (e.type === 'response.reasoning_summary_part.done' ? [e.part.text] : []))
    expect(parts).toHaveLength(6)
    expect(reasoningText(events)).toBe(parts.join('\n\n'))
    const end = events.find((e) => e.type === 'reasoning-delta' && e.encryptedContent)
    expect(end?.type === 'reasoning-delta' && end.summary).toEqual(parts)
    // Its authors anonymized the text deltas apart from the `.done` text: what streamed is what counts.
    const streamed = raw.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('')
    expect(events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('')).toBe(streamed)
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { input: 100, output: 500, cacheRead: 0, cacheWrite: 0, reasoning: 300 } },
      { type: 'finish', reason: 'stop', rawReason: 'completed' },
    ])
  })

  it('an error event fails the attempt with the provider message and code, not retried as a server error', async () => {
    const { events, error } = await map(recording('gpt-5-nano-insufficient-quota.jsonl'))
    expect(events).toEqual([])
    expect(error?.name).not.toBe(ProviderErrorNames.ProviderStreamInterrupted)
    expect(error?.data.code).toBe('insufficient_quota')
    expect(error?.data.retryable).toBe(false)
    expect(error?.message).toContain('You exceeded your current quota')
  })

  it('a stream cut before its terminal event is an interrupted stream (retried)', async () => {
    const raw = recording('gpt-5.1-codex-max-calculator.1.jsonl')
    const { error } = await map(raw.slice(0, -1))
    expect(error?.name).toBe(ProviderErrorNames.ProviderStreamInterrupted)
    expect(error?.data.retryable).toBe(true)
  })
})
