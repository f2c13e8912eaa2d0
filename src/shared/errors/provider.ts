import { z } from 'zod'
import { defineOpenError } from './define'

/** What every provider failure says; adapters may add what their API reported (open). */
const ProviderFailure = {
  providerId: z.string().optional(),
  model: z.string().optional(),
  status: z.number().optional(),
  /** Whether the retry policy may try again. */
  retryable: z.boolean(),
  /** Server-requested wait, from `retry-after-ms` / `retry-after`. */
  retryAfterMs: z.number().optional(),
  requestId: z.string().optional(),
  /** Attempts made before giving up (set when the retry loop gives up). */
  attempts: z.number().optional(),
}

/** Failures of a model request (the provider layer); a stopped request is the common `Aborted`. */
export const ProviderErrors = {
  /** 401/403, or no API key could be resolved. */
  ProviderAuth: defineOpenError('ProviderAuth', ProviderFailure),
  /** 429. */
  ProviderRateLimit: defineOpenError('ProviderRateLimit', ProviderFailure),
  /**
   * The account has no credit or quota left (OpenAI `insufficient_quota`, Anthropic "credit balance is too
   * low", any 402): waiting does not help, so it is never retried; the message says where to add credits.
   */
  ProviderBilling: defineOpenError('ProviderBilling', ProviderFailure),
  /** Anthropic 529 / `overloaded_error`, or 503. */
  ProviderOverloaded: defineOpenError('ProviderOverloaded', ProviderFailure),
  /** Any other 5xx. */
  ProviderServer: defineOpenError('ProviderServer', ProviderFailure),
  /** 4xx the request itself caused (malformed transcript, unknown model…). */
  ProviderBadRequest: defineOpenError('ProviderBadRequest', ProviderFailure),
  /** The request did not reach the server or the connection failed before a response. */
  ProviderConnection: defineOpenError('ProviderConnection', ProviderFailure),
  /** A 200 answer that is not what the API sends (an HTML page, not an event stream): a wrong endpoint. */
  ProviderBadResponse: defineOpenError('ProviderBadResponse', ProviderFailure),
  /** The response stream broke off before its end; `partial` when some of the answer had arrived. */
  ProviderStreamInterrupted: defineOpenError('ProviderStreamInterrupted', { ...ProviderFailure, partial: z.boolean().optional() }),
  /** The prompt does not fit the model's context window. */
  ContextOverflow: defineOpenError('ContextOverflow', ProviderFailure),
  /** `provider/model` names no provider we know, or the provider is misconfigured. */
  ProviderUnknown: defineOpenError('ProviderUnknown', ProviderFailure),
} as const
