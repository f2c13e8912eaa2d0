import type { HotaruError } from '@shared/errors'

/**
 * Re-yields an SDK stream, converting only the errors the SDK itself throws (HTTP,
 * socket, SSE parsing). Errors raised by our own code while handling an event are
 * bugs and propagate untouched, so the retry loop never retries them.
 */
export async function* convertErrors<T>(
  source: AsyncIterable<T>,
  convert: (error: unknown) => HotaruError,
): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]()
  let finished = false
  try {
    for (;;) {
      let result: IteratorResult<T>
      try {
        result = await iterator.next()
      } catch (error) {
        finished = true
        throw convert(error)
      }
      if (result.done) {
        finished = true
        return
      }
      yield result.value
    }
  } finally {
    // The consumer stopped early: let the SDK abort its HTTP request.
    if (!finished) await iterator.return?.()
  }
}
