/**
 * The wait a server asks for, in ms. `retry-after-ms` (OpenAI and Anthropic send it,
 * fractional ms) wins over `retry-after` (seconds or an HTTP date). Undefined when the
 * headers say nothing usable, so the caller falls back to its own backoff.
 */
export function retryAfterFromHeaders(headers: Headers | undefined, now: () => number = Date.now): number | undefined {
  if (!headers) return undefined
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms)
    if (Number.isFinite(value) && value >= 0) return Math.ceil(value)
  }
  const after = headers.get('retry-after')
  if (after === null || after.trim() === '') return undefined
  const seconds = Number(after)
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.ceil(seconds * 1000) : undefined
  const date = Date.parse(after)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now())
}
