import { killTreeNow } from '../process/tree'

/**
 * Server processes that are running now. When the host process exits without
 * disposing its projects (an uncaught error, `process.exit()` in a command), the
 * `exit` hook still kills every tree, so no MCP server outlives the app. A hard kill
 * of the host (SIGKILL) runs no code at all; servers then see their stdin close,
 * which ends well-behaved ones.
 */
const live = new Set<number>()
let hooked = false

function onExit(): void {
  for (const pid of live) {
    try {
      killTreeNow(pid)
    } catch (error) {
      // Nothing can be awaited or retried during exit; stderr is the last visible place.
      process.stderr.write(`hotaru: could not stop MCP server process ${pid}: ${String(error)}\n`)
    }
  }
  live.clear()
}

export function guardProcess(pid: number): void {
  if (!hooked) {
    process.on('exit', onExit)
    hooked = true
  }
  live.add(pid)
}

export function releaseProcess(pid: number): void {
  live.delete(pid)
}
