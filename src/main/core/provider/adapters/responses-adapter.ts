import type OpenAI from 'openai'
import { APIError } from 'openai'
import type { HotaruError } from '@shared/errors'
import type { FailureContext } from '../error-mapping'
import type { ResponsesParams } from '../transform/responses-request'
import type { Completion, StreamEvent } from '../types'
import { guardedStream } from './idle-guard'
import { openaiError } from './openai-errors'
import { mapResponsesStream, responsesCompletion, responsesStreamFailure } from './responses-stream'

/**
 * The SDK throws an `error` event of an open stream as an `APIError` without status; its
 * code (`server_error`, `rate_limit_exceeded`…) says whether a retry may help.
 */
function responsesError(error: unknown, ctx: FailureContext): HotaruError {
  if (error instanceof APIError && error.status === undefined) {
    return responsesStreamFailure({ code: error.code, message: (error.error as { message?: string } | undefined)?.message ?? error.message, type: error.type }, ctx)
  }
  return openaiError(error, ctx)
}

/** One streamed attempt against the Responses API (`POST /responses`). */
export async function* streamResponses(
  client: OpenAI,
  params: ResponsesParams,
  signal: AbortSignal | undefined,
  ctx: FailureContext,
  idleMs: number,
): AsyncGenerator<StreamEvent, void, undefined> {
  yield* guardedStream({
    signal,
    idleMs,
    ctx,
    open: (guarded) => client.responses.create({ ...params, stream: true }, { signal: guarded }).withResponse(),
    map: (events) => mapResponsesStream(events, ctx, signal),
    toError: (error) => responsesError(error, ctx),
  })
}

/** One non-streamed attempt against the Responses API. */
export async function completeResponses(
  client: OpenAI,
  params: ResponsesParams,
  signal: AbortSignal | undefined,
  ctx: FailureContext,
): Promise<Completion> {
  let response
  try {
    response = await client.responses.create({ ...params, stream: false }, { signal })
  } catch (error) {
    throw openaiError(error, ctx)
  }
  return responsesCompletion(response, ctx)
}
