import { HotaruError } from '@shared/errors'
import { describe, expect, it } from 'vitest'
import { defaultRetryOptions } from '../../../src/main/core/provider'
import { isContextOverflowMessage, fromApiFailure } from '../../../src/main/core/provider/error-mapping'
import { backoffDelay, planRetry } from '../../../src/main/core/provider/retry'
import { retryAfterFromHeaders } from '../../../src/main/core/provider/retry-after'

const ctx = { providerId: 'anthropic', model: 'm' }

describe('retry timing', () => {
  it('backs off 2 s, 4 s, 8 s… capped at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, defaultRetryOptions))).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000])
  })

  it('reads retry-after-ms first, then retry-after seconds or date', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '1234.5', 'retry-after': '9' }))).toBe(1235)
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '2' }))).toBe(2_000)
    const now = Date.parse('2025-01-01T00:00:00Z')
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), () => now)).toBe(5_000)
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'soon' }))).toBeUndefined()
    expect(retryAfterFromHeaders(undefined)).toBeUndefined()
  })

  it('plans retries only for retryable errors, within bounds', () => {
    const retryable = new HotaruError('ProviderServer', { message: 'x', retryable: true })
    const fatal = new HotaruError('ProviderBadRequest', { message: 'x', retryable: false })
    const withHeader = new HotaruError('ProviderRateLimit', { message: 'x', retryable: true, retryAfterMs: 700 })
    const options = { ...defaultRetryOptions, maxRetries: 2 }
    expect(planRetry(retryable, 1, options)).toEqual({ retry: true, delayMs: 2_000 })
    expect(planRetry(retryable, 3, options)).toEqual({ retry: false })
    expect(planRetry(fatal, 1, options)).toEqual({ retry: false })
    expect(planRetry(withHeader, 2, options)).toEqual({ retry: true, delayMs: 700 })
    expect(planRetry(withHeader, 1, { ...options, delayScale: 0.01 })).toEqual({ retry: true, delayMs: 7 })
  })
})

describe('error classification', () => {
  it.each([
    [401, undefined, 'ProviderAuth', false],
    [403, undefined, 'ProviderAuth', false],
    [429, undefined, 'ProviderRateLimit', true],
    [529, undefined, 'ProviderOverloaded', true],
    [503, undefined, 'ProviderOverloaded', true],
    [500, undefined, 'ProviderServer', true],
    [408, undefined, 'ProviderServer', true],
    [400, undefined, 'ProviderBadRequest', false],
    [404, undefined, 'ProviderBadRequest', false],
    [undefined, 'overloaded_error', 'ProviderOverloaded', true],
    [undefined, 'api_error', 'ProviderServer', true],
  ] as const)('status %s type %s → %s (retryable %s)', (status, type, name, retryable) => {
    const error = fromApiFailure({ status, type, message: 'boom' }, ctx, undefined)
    expect(error.name).toBe(name)
    expect(error.data.retryable).toBe(retryable)
  })

  it('recognizes context overflow in each provider’s words', () => {
    expect(isContextOverflowMessage('prompt is too long: 210000 tokens > 200000 maximum')).toBe(true)
    expect(isContextOverflowMessage("This model's maximum context length is 128000 tokens.")).toBe(true)
    expect(isContextOverflowMessage('Invalid request: exceeded model token limit')).toBe(true)
    expect(isContextOverflowMessage('tool_use ids were found without tool_result')).toBe(false)
    const error = fromApiFailure({ status: 400, message: 'prompt is too long: 300000 tokens > 200000 maximum' }, ctx, undefined)
    expect(error.name).toBe('ContextOverflow')
    const code = fromApiFailure({ status: 400, message: 'too big', code: 'context_length_exceeded' }, ctx, undefined)
    expect(code.name).toBe('ContextOverflow')
  })

  it.each([
    ['openai', { status: 429, type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota, please check your plan and billing details.' }, 'OpenAI refused the request for billing: 429 You exceeded your current quota, please check your plan and billing details. The account has no credit or quota left: add credits or check your plan and billing (Billing in the OpenAI platform settings), then send the message again.'],
    ['anthropic', { status: 400, type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.' }, 'Anthropic refused the request for billing: 400 Your credit balance is too low'],
    ['deepseek', { status: 402, type: 'unknown_error', message: 'Insufficient Balance' }, 'DeepSeek refused the request for billing: 402 Insufficient Balance. The account'],
    ['openrouter', { status: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits' }, '(Credits in the OpenRouter settings)'],
    ['my-gateway', { status: 402, message: 'Payment required' }, 'add credits or check your plan and billing with my-gateway, then'],
  ] as const)('names a billing failure of %s, says what to do and never retries it', (providerId, failure, message) => {
    const error = fromApiFailure(failure, { providerId, model: 'm' }, undefined)
    expect(error.name).toBe('ProviderBilling')
    expect(error.data.retryable).toBe(false)
    expect(error.message).toContain(message)
    expect(planRetry(error, 1, defaultRetryOptions)).toEqual({ retry: false })
  })

  it('keeps a plain 429 a rate limit', () => {
    const error = fromApiFailure({ status: 429, type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' }, ctx, undefined)
    expect(error.name).toBe('ProviderRateLimit')
  })

  it('keeps the server-requested wait on the error', () => {
    const error = fromApiFailure({ status: 429, message: 'slow down', headers: new Headers({ 'retry-after': '4' }) }, ctx, undefined)
    expect(error.data.retryAfterMs).toBe(4_000)
    expect(error.toData()).toMatchObject({ name: 'ProviderRateLimit', data: { providerId: 'anthropic', status: 429 } })
  })
})
