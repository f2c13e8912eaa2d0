import type { EventEmitter } from 'node:events'

/** Resolves when the child has exited and its output pipes are drained (or after `drainMs` if something else holds them). */
export function waitForExit(child: EventEmitter, drainMs = 250): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
    let done = false
    let drain: NodeJS.Timeout | undefined
    const finish = (): void => {
      if (done || !exit) return
      done = true
      // A pending drain timer would keep the process alive after the last answer.
      clearTimeout(drain)
      resolve(exit)
    }
    child.once('close', (code, sig) => {
      exit ??= { code, signal: sig }
      finish()
    })
    child.once('exit', (code, sig) => {
      exit = { code, signal: sig }
      // A process the command left behind may hold the pipes open: do not wait for it forever.
      drain = setTimeout(finish, drainMs)
    })
    child.once('error', () => {
      exit ??= { code: null, signal: null }
      finish()
    })
  })
}
