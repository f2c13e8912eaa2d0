import type { HotaruError } from '@shared/errors'
import { type ProviderErrorName, ProviderErrorNames, providerError } from './errors'
import { PROVIDER_PRESETS } from './presets'
import { retryAfterFromHeaders } from './retry-after'

/** What both SDKs tell us about a failed call, reduced to the facts we branch on. */
export interface ApiFailure {
  status?: number
  headers?: Headers
  /** The provider's human-readable message. */
  message: string
  /** Provider error type (`overloaded_error`, `rate_limit_error`, `server_error`…). */
  type?: string
  code?: string
  requestId?: string
}

export interface FailureContext {
  providerId: string
  model: string
}

// Phrases providers use for "the prompt is larger than the context window".
const CONTEXT_OVERFLOW = [
  /prompt is too long/i,
  /exceeds? (the )?context/i,
  /context[_ ]length/i,
  /maximum context length/i,
  /context window/i,
  /too many tokens/i,
  /exceeded model token limit/i,
  /input length and `max_tokens` exceed/i,
]

export function isContextOverflowMessage(message: string): boolean {
  return CONTEXT_OVERFLOW.some((re) => re.test(message))
}

// Phrases providers use for "the account has no credit or quota left" (OpenAI's 429 `insufficient_quota`,
// Anthropic's 400 "credit balance is too low", DeepSeek's 402 "Insufficient Balance", OpenRouter's 402).
const BILLING = [
  /insufficient[_ ]quota/i,
  /exceeded your current quota/i,
  /credit balance is too low/i,
  /insufficient (account )?balance/i,
  /insufficient credits/i,
  /requires more credits/i,
]

/** A failure no wait can fix: the account must be topped up first. */
export function isBillingFailure(failure: ApiFailure): boolean {
  if (failure.status === 402 || failure.code === 'insufficient_quota' || failure.type === 'insufficient_quota') return true
  return BILLING.some((re) => re.test(failure.message))
}

/** What the user reads: which provider refused, its own words, and what to do about it. */
function billingMessage(failure: ApiFailure, ctx: FailureContext, prefix: string): string {
  const preset = PROVIDER_PRESETS[ctx.providerId]
  const name = preset?.name ?? ctx.providerId
  const where = preset?.billing ? ` (${preset.billing})` : ` with ${name}`
  return (
    `${name} refused the request for billing: ${prefix}${failure.message.replace(/\.?\s*$/, '')}. ` +
    `The account has no credit or quota left: add credits or check your plan and billing${where}, then send the message again.`
  )
}

function nameFor(failure: ApiFailure): { name: ProviderErrorName; retryable: boolean } {
  const { status, type } = failure
  if (failure.code === 'context_length_exceeded' || isContextOverflowMessage(failure.message)) {
    return { name: ProviderErrorNames.ContextOverflow, retryable: false }
  }
  if (isBillingFailure(failure)) return { name: ProviderErrorNames.ProviderBilling, retryable: false }
  if (status === 401 || status === 403 || type === 'authentication_error' || type === 'permission_error') {
    return { name: ProviderErrorNames.ProviderAuth, retryable: false }
  }
  if (status === 429 || type === 'rate_limit_error') return { name: ProviderErrorNames.ProviderRateLimit, retryable: true }
  if (status === 529 || status === 503 || type === 'overloaded_error') {
    return { name: ProviderErrorNames.ProviderOverloaded, retryable: true }
  }
  if (status === 413 || type === 'request_too_large') return { name: ProviderErrorNames.ContextOverflow, retryable: false }
  // 408 (request timeout) and 409 (conflict) are transient by definition.
  if (status === 408 || status === 409) return { name: ProviderErrorNames.ProviderServer, retryable: true }
  if (status !== undefined && status >= 500) return { name: ProviderErrorNames.ProviderServer, retryable: true }
  if (status === undefined && (type === 'api_error' || type === 'server_error' || type === 'timeout_error')) {
    // An error event inside an already-open stream: the server failed mid-response.
    return { name: ProviderErrorNames.ProviderServer, retryable: true }
  }
  if (status !== undefined && status >= 400) return { name: ProviderErrorNames.ProviderBadRequest, retryable: false }
  return { name: ProviderErrorNames.ProviderServer, retryable: false }
}

export function fromApiFailure(failure: ApiFailure, ctx: FailureContext, cause: unknown): HotaruError {
  const { name, retryable } = nameFor(failure)
  const retryAfterMs = retryAfterFromHeaders(failure.headers)
  const prefix = failure.status === undefined ? '' : `${failure.status} `
  return providerError(
    name,
    {
      message: name === ProviderErrorNames.ProviderBilling ? billingMessage(failure, ctx, prefix) : `${ctx.providerId}: ${prefix}${failure.message}`,
      providerId: ctx.providerId,
      model: ctx.model,
      status: failure.status,
      type: failure.type,
      code: failure.code,
      retryable,
      retryAfterMs,
      requestId: failure.requestId,
    },
    cause,
  )
}

export function connectionError(error: unknown, ctx: FailureContext): HotaruError {
  const detail = describeCause(error)
  return providerError(
    ProviderErrorNames.ProviderConnection,
    { message: `${ctx.providerId}: could not reach the server (${detail})`, ...ctx, retryable: true },
    error,
  )
}

export function streamInterrupted(error: unknown, ctx: FailureContext, detail?: string): HotaruError {
  const reason = detail ?? describeCause(error)
  return providerError(
    ProviderErrorNames.ProviderStreamInterrupted,
    { message: `${ctx.providerId}: the response stream broke off (${reason})`, ...ctx, retryable: true },
    error,
  )
}

/** The innermost useful message: fetch wraps socket errors (`terminated` ← `ECONNRESET`). */
export function describeCause(error: unknown): string {
  const parts: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code
    parts.push(code ? `${current.message} [${code}]` : current.message)
    current = current.cause
  }
  if (parts.length === 0) return String(error)
  return parts.filter((p) => p.length > 0).join(': ')
}
