import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Stream } from 'openai/streaming'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { describe, expect, it } from 'vitest'
import type { HotaruError } from '@shared/errors'
import { mapResponsesStream } from '../../../src/main/core/provider/adapters/responses-stream'
import { ProviderErrorNames, type StreamEvent } from '../../../src/main/core/provider'

const ctx = { providerId: 'openai', model: 'gpt-5-codex' }

async function map(events: AsyncIterable<ResponseStreamEvent>): Promise<{ events: StreamEvent[]; error?: HotaruError }> {
  const out: StreamEvent[] = []
  try {
    for await (const event of mapResponsesStream(events, ctx, undefined)) out.push(event)
  } catch (error) {
    return { events: out, error: error as HotaruError }
  }
  return { events: out }
}

async function* of(events: unknown[]): AsyncGenerator<ResponseStreamEvent> {
  for (const event of events) yield event as ResponseStreamEvent
}

const response = (status: string, extra: Record<string, unknown> = {}) => ({ id: 'resp_1', object: 'response', status, output: [], usage: null, ...extra })

describe('Responses stream mapping', () => {
  it("Codex CLI's recorded stream (a message only whole in output_item.done, no usage) through the SDK's SSE parser", async () => {
    const sse = readFileSync(join(__dirname, '../../fixtures/replay/openai-responses/codex-cli-fixture.sse'), 'utf8')
    const stream = Stream.fromSSEResponse<ResponseStreamEvent>(new Response(sse, { headers: { 'content-type': 'text/event-stream' } }), new AbortController())
    const { events, error } = await map(stream)
    expect(error).toBeUndefined()
    expect(events).toEqual([
      { type: 'text-delta', text: 'fixture hello' },
      { type: 'usage', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
      { type: 'finish', reason: 'stop', rawReason: 'completed' },
    ])
  })

  it('response.failed with a rate limit is a retryable rate limit, with the server message', async () => {
    const failed = response('failed', { error: { code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-5-codex on tokens per min (TPM).' } })
    const { error } = await map(of([{ type: 'response.created', response: response('in_progress') }, { type: 'response.failed', response: failed }]))
    expect(error?.name).toBe(ProviderErrorNames.ProviderRateLimit)
    expect(error?.data.retryable).toBe(true)
    expect(error?.message).toContain('Rate limit reached')
  })

  it('an incomplete response cut inside a call ends the call with what arrived and finishes as length', async () => {
    const item = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'write', arguments: '', status: 'in_progress' }
    const { events } = await map(
      of([
        { type: 'response.output_item.added', output_index: 0, item },
        { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '{"path":"a.txt","content":"lo' },
        { type: 'response.incomplete', response: response('incomplete', { incomplete_details: { reason: 'max_output_tokens' } }) },
      ]),
    )
    const end = events.find((e) => e.type === 'tool-call-end')
    expect(end && 'inputError' in end && end.inputError.raw).toBe('{"path":"a.txt","content":"lo')
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length', rawReason: 'max_output_tokens' })
  })

  it('raw reasoning text (servers without summaries) streams as reasoning; no encrypted item, no closing delta', async () => {
    const { events } = await map(
      of([
        { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
        { type: 'response.reasoning_text.delta', item_id: 'rs_1', output_index: 0, content_index: 0, delta: 'Step 1.' },
        { type: 'response.output_item.done', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'Step 1.' }] } },
        { type: 'response.completed', response: response('completed') },
      ]),
    )
    expect(events.filter((e) => e.type === 'reasoning-delta')).toEqual([{ type: 'reasoning-delta', text: 'Step 1.' }])
  })
})
