import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error'
import type { HotaruError } from '@shared/errors'
import { type FailureContext, connectionError, fromApiFailure, streamInterrupted } from '../error-mapping'
import { abortedError } from '../errors'

/** Classifies anything the Anthropic SDK throws, before or during a stream. */
export function anthropicError(error: unknown, ctx: FailureContext): HotaruError {
  if (error instanceof APIUserAbortError) return abortedError(ctx.providerId, ctx.model)
  if (error instanceof APIConnectionError) return connectionError(error.cause ?? error, ctx)
  if (error instanceof APIError) {
    return fromApiFailure(
      {
        status: error.status,
        headers: error.headers,
        message: error.apiMessage ?? error.message,
        type: error.type ?? undefined,
        code: error.errorCode ?? undefined,
        requestId: error.requestID ?? undefined,
      },
      ctx,
      error,
    )
  }
  // Socket resets (`terminated`), truncated SSE frames: the stream broke off.
  return streamInterrupted(error, ctx)
}
