import { HotaruError } from '@shared/errors'

/** Error names thrown by the provider layer (checked by name, never `instanceof`). */
export const ProviderErrorNames = {
  /** 401/403, or no API key could be resolved. */
  ProviderAuth: 'ProviderAuth',
  /** 429. */
  ProviderRateLimit: 'ProviderRateLimit',
  /**
   * The account has no credit or quota left (OpenAI `insufficient_quota`, Anthropic "credit balance is too
   * low", any 402): waiting does not help, so it is never retried; the message says where to add credits.
   */
  ProviderBilling: 'ProviderBilling',
  /** Anthropic 529 / `overloaded_error`, or 503. */
  ProviderOverloaded: 'ProviderOverloaded',
  /** Any other 5xx. */
  ProviderServer: 'ProviderServer',
  /** 4xx the request itself caused (malformed transcript, unknown model…). */
  ProviderBadRequest: 'ProviderBadRequest',
  /** The request did not reach the server or the connection failed before a response. */
  ProviderConnection: 'ProviderConnection',
  /** A 200 answer that is not what the API sends (an HTML page, not an event stream): a wrong endpoint. */
  ProviderBadResponse: 'ProviderBadResponse',
  /** The response stream broke off before its end. */
  ProviderStreamInterrupted: 'ProviderStreamInterrupted',
  /** The prompt does not fit the model's context window. */
  ContextOverflow: 'ContextOverflow',
  /** `provider/model` names no provider we know, or the provider is misconfigured. */
  ProviderUnknown: 'ProviderUnknown',
  /** The caller aborted the request. */
  Aborted: 'Aborted',
} as const

export type ProviderErrorName = (typeof ProviderErrorNames)[keyof typeof ProviderErrorNames]

export interface ProviderErrorData {
  message: string
  providerId?: string
  model?: string
  status?: number
  /** Whether the retry policy may try again. */
  retryable: boolean
  /** Server-requested wait, from `retry-after-ms` / `retry-after`. */
  retryAfterMs?: number
  requestId?: string
  /** Attempts made before giving up (set when the retry loop gives up). */
  attempts?: number
  [key: string]: unknown
}

export function providerError(
  name: ProviderErrorName,
  data: ProviderErrorData,
  cause?: unknown,
): HotaruError {
  return new HotaruError(name, data, cause === undefined ? undefined : { cause })
}

export function isProviderErrorName(name: string): name is ProviderErrorName {
  return Object.values<string>(ProviderErrorNames).includes(name)
}

export function isRetryable(error: HotaruError): boolean {
  return error.data.retryable === true
}

export function abortedError(providerId?: string, model?: string): HotaruError {
  return providerError(ProviderErrorNames.Aborted, { message: 'The request was aborted', providerId, model, retryable: false })
}
