import { APIConnectionError, APIError, APIUserAbortError } from 'openai'
import type { HotaruError } from '@shared/errors'
import { type FailureContext, connectionError, fromApiFailure, streamInterrupted } from '../error-mapping'
import { abortedError } from '../errors'

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined
}

/** Classifies anything the OpenAI SDK throws, before or during a stream. */
export function openaiError(error: unknown, ctx: FailureContext): HotaruError {
  if (error instanceof APIUserAbortError) return abortedError(ctx.providerId, ctx.model)
  if (error instanceof APIConnectionError) return connectionError(error.cause ?? error, ctx)
  if (error instanceof APIError) {
    const body = error.error as { message?: unknown } | undefined
    return fromApiFailure(
      {
        status: error.status,
        headers: error.headers,
        message: stringField(body?.message) ?? error.message,
        type: stringField(error.type),
        code: stringField(error.code),
        requestId: error.requestID ?? undefined,
      },
      ctx,
      error,
    )
  }
  return streamInterrupted(error, ctx)
}
