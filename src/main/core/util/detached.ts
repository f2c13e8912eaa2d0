import { log } from './log'

/**
 * Starts work nobody awaits (timers, event handlers, background starts) and owns its failure: a rejection is
 * logged with what the work was, and handed to `onError` when the caller can show it, instead of becoming an
 * unhandled rejection that ends the process. Use it instead of a bare `void promise`.
 */
export function detached(what: string, task: Promise<unknown> | (() => Promise<unknown>), onError?: (error: unknown) => void): void {
  let promise: Promise<unknown>
  try {
    promise = typeof task === 'function' ? task() : task
  } catch (error) {
    report(what, error, onError)
    return
  }
  promise.catch((error: unknown) => report(what, error, onError))
}

function report(what: string, error: unknown, onError?: (error: unknown) => void): void {
  log.error(`[${what}] failed:`, error instanceof Error ? error.message : error)
  try {
    onError?.(error)
  } catch (handlerError) {
    log.error(`[${what}] its failure handler failed too:`, handlerError)
  }
}
