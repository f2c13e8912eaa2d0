import type OpenAI from 'openai'
import type { FailureContext } from '../error-mapping'
import type { OpenAIParams } from '../transform/openai-request'
import type { Completion, StreamEvent } from '../types'
import { guardedStream } from './idle-guard'
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
  yield* guardedStream({
    signal,
    idleMs,
    ctx,
    // Without include_usage a stream reports no token counts at all.
    open: (guarded) => client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } }, { signal: guarded }).withResponse(),
    map: (chunks) => mapOpenAIStream(chunks, ctx, signal),
    toError: (error) => openaiError(error, ctx),
  })
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
