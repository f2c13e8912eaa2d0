/**
 * Work the UI starts and does not wait for (a click, a menu item, a reload after resync). Bridge calls answer
 * with a Result, so a rejection here is a broken connection or a bug: it is logged with what was being done and
 * handed to whoever listens (the notices area), never left as an unhandled rejection.
 */
export interface BackgroundFailure {
  what: string
  error: unknown
}

const listeners = new Set<(failure: BackgroundFailure) => void>()

/** `task` may be a plain value when the started work turned out to be synchronous (or absent). */
export function background(what: string, task: PromiseLike<unknown> | void): void {
  Promise.resolve(task).catch((error: unknown) => {
    console.error(`[${what}] failed:`, error)
    for (const listener of listeners) listener({ what, error })
  })
}

/** Subscribes to failures of background work; returns the unsubscribe. */
export function onBackgroundFailure(listener: (failure: BackgroundFailure) => void): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}
