import type OpenAI from 'openai'
import { type FailureContext, streamInterrupted } from '../error-mapping'
import type { OpenAIParams } from '../transform/openai-request'
import type { Completion, StreamEvent } from '../types'
import { convertErrors } from './convert-errors'
import { IdleGuard, touching } from './idle-guard'
import { openaiError } from './openai-errors'
import { mapOpenAIStream, openaiCompletion } from './openai-stream'

/** One streamed attempt against Chat Completions. */
export async function* streamOpenAI(
  client: OpenAI,
  params: OpenAIParams,
  signal: AbortSignal | undefined,
  ctx: FailureContext,
  idleMs: number,
): AsyncGenerator<StreamEvent, void, undefined> {
  const guard = new IdleGuard(signal, idleMs)
  try {
    let stream
    try {
      stream = await client.chat.completions.create(
        // Without include_usage a stream reports no token counts at all.
        { ...params, stream: true, stream_options: { include_usage: true } },
        { signal: guard.signal },
      )
    } catch (error) {
      throw guard.timedOut ? streamInterrupted(error, ctx, `no response for ${idleMs} ms`) : openaiError(error, ctx)
    }
    const chunks = convertErrors(touching(stream, guard), (error) => openaiError(error, ctx))
    try {
      yield* mapOpenAIStream(chunks, ctx, signal)
    } catch (error) {
      if (guard.timedOut) throw streamInterrupted(error, ctx, `no data for ${idleMs} ms`)
      throw error
    }
  } finally {
    guard.dispose()
  }
}

/** One non-streamed attempt against Chat Completions. */
export async function completeOpenAI(
  client: OpenAI,
  params: OpenAIParams,
  signal: AbortSignal | undefined,
  ctx: FailureContext,
): Promise<Completion> {
  try {
    return openaiCompletion(await client.chat.completions.create({ ...params, stream: false }, { signal }))
  } catch (error) {
    throw openaiError(error, ctx)
  }
}
