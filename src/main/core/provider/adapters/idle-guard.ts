import { type FailureContext, streamInterrupted } from '../error-mapping'
import type { StreamEvent } from '../types'
import { convertErrors } from './convert-errors'
import type { HotaruError } from '@shared/errors'

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
  /** Starts the SDK request with the guard's signal. */
  open(signal: AbortSignal): Promise<AsyncIterable<T>>
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
      stream = await options.open(guard.signal)
    } catch (error) {
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
