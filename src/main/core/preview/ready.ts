/** How often a starting server's URL is asked whether it answers yet. */
const POLL_MS = 200
/** One probe may take this long (a server still compiling its first page answers slowly). */
const PROBE_MS = 5_000

export type ReadyOutcome = { ready: true } | { ready: false; reason: string }

/**
 * Waits until `url` answers an HTTP request (any status: a 404 still proves the server listens),
 * the process ends (`ended` resolves with its reason), `signal` aborts, or `timeoutMs` passes.
 */
export async function waitForUrl(url: string, options: { timeoutMs: number; ended: Promise<string>; signal: AbortSignal }): Promise<ReadyOutcome> {
  const deadline = Date.now() + options.timeoutMs
  let ended: string | undefined
  options.ended.then(
    (reason) => {
      ended = reason
    },
    (error: unknown) => {
      ended = (error as Error).message
    },
  )
  let lastError = 'no answer'
  while (Date.now() < deadline) {
    if (ended !== undefined) return { ready: false, reason: ended }
    if (options.signal.aborted) return { ready: false, reason: 'stopped' }
    try {
      const response = await fetch(url, { signal: AbortSignal.any([AbortSignal.timeout(PROBE_MS), options.signal]), redirect: 'manual' })
      await response.body?.cancel()
      return { ready: true }
    } catch (error) {
      // Refused while the server starts: asked again after a pause.
      lastError = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  if (ended !== undefined) return { ready: false, reason: ended }
  return { ready: false, reason: `${url} did not answer within ${Math.round(options.timeoutMs / 1000)} s (${lastError})` }
}

/** Whether something answers HTTP at `url` right now (one short request). */
export async function answers(url: string, timeoutMs = 1_000): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' })
    await response.body?.cancel()
    return true
  } catch (error) {
    // Refused or silent: nothing serves there.
    if (error instanceof Error) return false
    throw error
  }
}
