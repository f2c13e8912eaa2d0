import { HotaruError } from '@shared/errors'
import type { FailureContext } from './error-mapping'
import { ProviderErrorNames, abortedError, isRetryable, providerError } from './errors'
import type { StreamEvent } from './types'

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number
  /** First backoff delay; doubles per retry (2 s, 4 s, 8 s…). */
  initialDelayMs: number
  maxDelayMs: number
  /**
   * Longest server-requested wait (`retry-after`) we sit through. A longer one ends
   * the retries with the error, so the user sees why instead of a frozen turn.
   */
  maxRetryAfterMs: number
  /** Multiplies every wait; tests and benchmarks use a tiny factor. */
  delayScale: number
  sleep: Sleep
}

export const defaultRetryOptions: RetryOptions = {
  maxRetries: 5,
  initialDelayMs: 2_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  delayScale: 1,
  sleep: abortableSleep,
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** Backoff for retry number `retry` (1-based) when the server gave no `retry-after`. */
export function backoffDelay(retry: number, options: Pick<RetryOptions, 'initialDelayMs' | 'maxDelayMs'>): number {
  return Math.min(options.initialDelayMs * 2 ** (retry - 1), options.maxDelayMs)
}

/** The outcome of one failed attempt: wait this long and retry, or give up with the error. */
export function planRetry(
  error: HotaruError,
  retry: number,
  options: RetryOptions,
): { retry: true; delayMs: number } | { retry: false } {
  if (!isRetryable(error) || retry > options.maxRetries) return { retry: false }
  const requested = typeof error.data.retryAfterMs === 'number' ? error.data.retryAfterMs : undefined
  if (requested !== undefined && requested > options.maxRetryAfterMs) return { retry: false }
  const delay = requested ?? backoffDelay(retry, options)
  return { retry: true, delayMs: Math.round(delay * options.delayScale) }
}

const OUTPUT_EVENTS = new Set<StreamEvent['type']>([
  'text-delta',
  'reasoning-delta',
  'tool-call-start',
  'tool-call-delta',
  'tool-call-end',
])

/**
 * Runs `attempt` until one completes, retrying transient failures. See `StreamEvent`
 * for the contract: `attempt-reset` then `retry` before each retry that follows
 * output, no retry once a tool call completed, `Aborted` on abort.
 */
export async function* streamWithRetry(
  attempt: (signal: AbortSignal | undefined) => AsyncIterable<StreamEvent>,
  options: RetryOptions,
  signal: AbortSignal | undefined,
  ctx: FailureContext,
): AsyncGenerator<StreamEvent, void, undefined> {
  for (let retry = 1; ; retry++) {
    let producedOutput = false
    let completedToolCall = false
    try {
      for await (const event of attempt(signal)) {
        if (OUTPUT_EVENTS.has(event.type)) producedOutput = true
        if (event.type === 'tool-call-end') completedToolCall = true
        yield event
      }
      return
    } catch (caught) {
      if (signal?.aborted) throw abortedError(ctx.providerId, ctx.model)
      // Anything that is not a classified provider failure is a bug: surface it as is.
      if (!(caught instanceof HotaruError)) throw caught
      const plan = planRetry(caught, retry, options)
      if (!plan.retry) {
        caught.data.attempts = retry
        throw caught
      }
      if (completedToolCall) {
        throw providerError(
          ProviderErrorNames.ProviderStreamInterrupted,
          {
            ...caught.data,
            message: `${caught.message} (after a completed tool call; not retried)`,
            retryable: false,
            partial: true,
            attempts: retry,
          },
          caught,
        )
      }
      if (producedOutput) yield { type: 'attempt-reset' }
      yield { type: 'retry', attempt: retry, maxRetries: options.maxRetries, delayMs: plan.delayMs, error: caught.toData() }
      try {
        await options.sleep(plan.delayMs, signal)
      } catch (sleepError) {
        if (signal?.aborted) throw abortedError(ctx.providerId, ctx.model)
        throw sleepError
      }
    }
  }
}

/** Retries a single-shot call under the same policy; `onRetry` sees what `retry` events carry. */
export async function callWithRetry<T>(
  call: (signal: AbortSignal | undefined) => Promise<T>,
  options: RetryOptions,
  signal: AbortSignal | undefined,
  ctx: FailureContext,
  onRetry?: (event: Extract<StreamEvent, { type: 'retry' }>) => void,
): Promise<T> {
  for (let retry = 1; ; retry++) {
    try {
      return await call(signal)
    } catch (caught) {
      if (signal?.aborted) throw abortedError(ctx.providerId, ctx.model)
      if (!(caught instanceof HotaruError)) throw caught
      const plan = planRetry(caught, retry, options)
      if (!plan.retry) {
        caught.data.attempts = retry
        throw caught
      }
      onRetry?.({ type: 'retry', attempt: retry, maxRetries: options.maxRetries, delayMs: plan.delayMs, error: caught.toData() })
      try {
        await options.sleep(plan.delayMs, signal)
      } catch (sleepError) {
        if (signal?.aborted) throw abortedError(ctx.providerId, ctx.model)
        throw sleepError
      }
    }
  }
}
