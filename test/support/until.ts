/** Polls `test` until it holds; fails with `what` after `ms`. */
export async function until(test: () => boolean | Promise<boolean>, what: string, ms = 15_000, everyMs = 50): Promise<void> {
  const start = Date.now()
  while (!(await test())) {
    if (Date.now() - start > ms) throw new Error(`timed out: ${what}`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}
