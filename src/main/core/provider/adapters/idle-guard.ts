import { type FailureContext, streamInterrupted } from '../error-mapping'
import type { StreamEvent } from '../types'
import { convertErrors } from './convert-errors'
import { HotaruError } from '@shared/errors'
import { ProviderErrorNames, providerError } from '../errors'

/**
 * A 200 answer that is not an event stream (a proxy's or login page's HTML, plain JSON from a wrong path) is
 * named for what it is at once and not retried: retrying it only hides a wrong `baseURL` behind a minute of waits.
 */
function assertEventStream(response: Response, ctx: FailureContext): void {
  const type = response.headers.get('content-type') ?? ''
  if (/^text\/event-stream/i.test(type)) return
  const what = /html/i.test(type) ? 'an HTML page' : type ? `"${type.split(';')[0]}"` : 'a body without a content type'
  throw providerError(ProviderErrorNames.ProviderBadResponse, {
    message: `${ctx.providerId}: the endpoint answered ${response.status} with ${what}, not an event stream (${response.url || 'unknown URL'}); check the provider's baseURL`,
    ...ctx,
    retryable: false,
    status: response.status,
    contentType: type,
  })
}

/**
 * A per-attempt abort signal that also fires when the response goes quiet for
 * `idleMs`. The SDKs' own timeout stops at the response headers, so a stream that
 * stalls mid-body would otherwise hang the turn forever; a stalled attempt is
 * aborted and reported as an interrupted stream, which the retry policy retries.
 */
export class IdleGuard {
  private readonly controller = new AbortController()
  private timer: NodeJS.Timeout | undefined
  private fired = false
  private readonly onParentAbort: () => void

  constructor(
    private readonly parent: AbortSignal | undefined,
    readonly idleMs: number,
  ) {
    this.onParentAbort = () => this.controller.abort(parent?.reason)
    if (parent?.aborted) this.controller.abort(parent.reason)
    else parent?.addEventListener('abort', this.onParentAbort, { once: true })
    this.touch()
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  /** True when this guard (not the caller) aborted the attempt. */
  get timedOut(): boolean {
    return this.fired
  }

  /** Data arrived: restart the idle clock. */
  touch(): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.fired = true
      this.controller.abort(new Error(`no data for ${this.idleMs} ms`))
    }, this.idleMs)
  }

  /** Ends the attempt's request (its body is not read). */
  abort(): void {
    this.controller.abort(new Error('not an event stream'))
  }

  dispose(): void {
    clearTimeout(this.timer)
    this.parent?.removeEventListener('abort', this.onParentAbort)
  }
}

/** Re-yields `source`, touching the guard on every item. */
export async function* touching<T>(source: AsyncIterable<T>, guard: IdleGuard): AsyncGenerator<T, void, undefined> {
  for await (const item of source) {
    guard.touch()
    yield item
  }
}

export interface GuardedStreamOptions<T> {
  signal: AbortSignal | undefined
  idleMs: number
  ctx: FailureContext
  /** Starts the SDK request with the guard's signal; `response` is the HTTP answer, checked to be an event stream. */
  open(signal: AbortSignal): Promise<{ data: AsyncIterable<T>; response: Response }>
  /** Maps the SDK's events to the normalized stream. */
  map(events: AsyncIterable<T>): AsyncGenerator<StreamEvent, void, undefined>
  /** Turns an SDK error into a provider error. */
  toError(error: unknown): HotaruError
}

/**
 * One streamed attempt under an idle guard, shared by every SDK adapter: a request
 * or a body that goes quiet is reported as an interrupted stream (which is retried),
 * other failures through the adapter's error mapping.
 */
export async function* guardedStream<T>(options: GuardedStreamOptions<T>): AsyncGenerator<StreamEvent, void, undefined> {
  const { ctx, idleMs } = options
  const guard = new IdleGuard(options.signal, idleMs)
  try {
    let stream: AsyncIterable<T>
    try {
      const opened = await options.open(guard.signal)
      stream = opened.data
      assertEventStream(opened.response, ctx)
    } catch (error) {
      if (error instanceof HotaruError && error.name === ProviderErrorNames.ProviderBadResponse) {
        guard.abort()
        throw error
      }
      throw guard.timedOut ? streamInterrupted(error, ctx, `no response for ${idleMs} ms`) : options.toError(error)
    }
    try {
      yield* options.map(convertErrors(touching(stream, guard), options.toError))
    } catch (error) {
      if (guard.timedOut) throw streamInterrupted(error, ctx, `no data for ${idleMs} ms`)
      throw error
    }
  } finally {
    guard.dispose()
  }
}
