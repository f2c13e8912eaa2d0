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
