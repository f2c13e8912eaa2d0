import { killTreeNow } from '../process/tree'

/**
 * Server processes that are running now. When the host process exits without
 * disposing its projects (an uncaught error, `process.exit()` in a command), the
 * `exit` hook still kills every tree, so no MCP server outlives the app. A hard kill
 * of the host (SIGKILL) runs no code at all; servers then see their stdin close,
 * which ends well-behaved ones.
 */
/** Each running server's pid, with the tag its processes carry (`TREE_VARIABLE`). */
const live = new Map<number, string | undefined>()
let hooked = false

function onExit(): void {
  for (const [pid, tag] of live) {
    try {
      killTreeNow(pid, tag)
    } catch (error) {
      // Nothing can be awaited or retried during exit; stderr is the last visible place.
      process.stderr.write(`hotaru: could not stop MCP server process ${pid}: ${String(error)}\n`)
    }
  }
  live.clear()
}

export function guardProcess(pid: number, tag?: string): void {
  if (!hooked) {
    process.on('exit', onExit)
    hooked = true
  }
  live.set(pid, tag)
}

export function releaseProcess(pid: number): void {
  live.delete(pid)
}
