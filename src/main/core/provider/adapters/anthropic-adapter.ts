import type Anthropic from '@anthropic-ai/sdk'
import { type FailureContext, streamInterrupted } from '../error-mapping'
import type { AnthropicParams } from '../transform/anthropic-request'
import type { Completion, StreamEvent } from '../types'
import { anthropicError } from './anthropic-errors'
import { anthropicCompletion, mapAnthropicStream } from './anthropic-stream'
import { convertErrors } from './convert-errors'
import { IdleGuard, touching } from './idle-guard'

/** One streamed attempt against the Messages API. */
export async function* streamAnthropic(
  client: Anthropic,
  params: AnthropicParams,
  signal: AbortSignal | undefined,
  ctx: FailureContext,
  idleMs: number,
): AsyncGenerator<StreamEvent, void, undefined> {
  const guard = new IdleGuard(signal, idleMs)
  try {
    let stream
    try {
      stream = await client.messages.create({ ...params, stream: true }, { signal: guard.signal })
    } catch (error) {
      throw guard.timedOut ? streamInterrupted(error, ctx, `no response for ${idleMs} ms`) : anthropicError(error, ctx)
    }
    const events = convertErrors(touching(stream, guard), (error) => anthropicError(error, ctx))
    try {
      yield* mapAnthropicStream(events, ctx, signal)
    } catch (error) {
      if (guard.timedOut) throw streamInterrupted(error, ctx, `no data for ${idleMs} ms`)
      throw error
    }
  } finally {
    guard.dispose()
  }
}

/** One non-streamed attempt against the Messages API. */
export async function completeAnthropic(
  client: Anthropic,
  params: AnthropicParams,
  signal: AbortSignal | undefined,
  ctx: FailureContext,
): Promise<Completion> {
  try {
    return anthropicCompletion(await client.messages.create({ ...params, stream: false }, { signal }))
  } catch (error) {
    throw anthropicError(error, ctx)
  }
}
