import type { AnthropicClient } from './anthropic-client'
import type { FailureContext } from '../error-mapping'
import type { AnthropicParams } from '../transform/anthropic-request'
import type { Completion, StreamEvent } from '../types'
import { anthropicError } from './anthropic-errors'
import { anthropicCompletion, mapAnthropicStream } from './anthropic-stream'
import { guardedStream } from './idle-guard'

/** One streamed attempt against the Messages API. */
export async function* streamAnthropic(
  client: AnthropicClient,
  params: AnthropicParams,
  signal: AbortSignal | undefined,
  ctx: FailureContext,
  idleMs: number,
  headers?: Record<string, string>,
): AsyncGenerator<StreamEvent, void, undefined> {
  yield* guardedStream({
    signal,
    idleMs,
    ctx,
    open: (guarded) => client.messages.create({ ...params, stream: true }, { signal: guarded, headers }).withResponse(),
    map: (events) => mapAnthropicStream(events, ctx, signal),
    toError: (error) => anthropicError(error, ctx),
  })
}

/** One non-streamed attempt against the Messages API. */
export async function completeAnthropic(
  client: AnthropicClient,
  params: AnthropicParams,
  signal: AbortSignal | undefined,
  ctx: FailureContext,
  headers?: Record<string, string>,
): Promise<Completion> {
  try {
    return anthropicCompletion(await client.messages.create({ ...params, stream: false }, { signal, headers }))
  } catch (error) {
    throw anthropicError(error, ctx)
  }
}
