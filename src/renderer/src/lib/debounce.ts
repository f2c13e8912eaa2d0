/** Calls `fn` once `ms` after the last call; `flush()` runs a pending call now. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | null = null
  let pending: A | null = null
  const run = (): void => {
    timer = null
    const args = pending
    pending = null
    if (args) fn(...args)
  }
  const debounced = (...args: A): void => {
    pending = args
    if (timer) clearTimeout(timer)
    timer = setTimeout(run, ms)
  }
  debounced.flush = (): void => {
    if (timer) clearTimeout(timer)
    run()
  }
  debounced.cancel = (): void => {
    if (timer) clearTimeout(timer)
    timer = null
    pending = null
  }
  return debounced
}
