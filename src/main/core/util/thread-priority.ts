import { readlinkSync, stat } from 'node:fs'
import { setPriority } from 'node:os'

/** The niceness of background work (the snapshot walk, the file watch, language servers) in hosts with a UI. */
export const BACKGROUND_NICENESS = 10

/**
 * Lowers the scheduling priority of the calling thread only, at once: Linux schedules threads,
 * and `setpriority` on a thread id affects that thread. A background thread (the snapshot walk,
 * the file watch's crawl) then yields the CPU to the main thread, whose event loop carries IPC,
 * streamed text and terminal output, while it still gets every cycle nobody else wants.
 *
 * Synchronous, so a worker calls it before it takes its first request: the first request of a
 * snapshot worker is the first walk of the tree, which runs for seconds without a break.
 *
 * Threads a thread creates inherit its niceness, and libuv creates its one thread pool (which
 * every thread's file operations use) on the first file operation of any thread, inside that call:
 * so one file operation is started first, making sure the pool exists at normal priority. Its
 * result does not matter. Elsewhere than Linux, or where the thread's id cannot be read, nothing
 * changes.
 */
export function lowerThisThreadPriority(niceness: number): boolean {
  if (process.platform !== 'linux') return false
  stat('/', () => undefined)
  // `/proc/thread-self` links to `<pid>/task/<tid>` of the thread that reads it.
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
  if (!Number.isInteger(tid) || tid <= 0) return false
  setPriority(tid, niceness)
  return true
}
