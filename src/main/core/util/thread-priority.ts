import { readlinkSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { setPriority } from 'node:os'

/** The niceness of background threads (the snapshot walk, the file watch) in hosts with a UI. */
export const BACKGROUND_NICENESS = 10

/**
 * Lowers the scheduling priority of the calling thread only: Linux schedules threads, and
 * `setpriority` on a thread id affects that thread. A background thread (the snapshot walk, the
 * file watch's crawl) then yields the CPU to the main thread, whose event loop carries IPC,
 * streamed text and terminal output, while it still gets every cycle nobody else wants.
 *
 * Threads a thread creates inherit its niceness, and libuv creates its one thread pool (which
 * every thread's file operations use) on first use, from whichever thread asks first: so one
 * file operation runs first, making sure the pool exists at normal priority. Elsewhere than
 * Linux, or where the thread's id cannot be read, nothing changes.
 */
export async function lowerThisThreadPriority(niceness: number): Promise<boolean> {
  if (process.platform !== 'linux') return false
  await stat('/')
  // `/proc/thread-self` links to `<pid>/task/<tid>` of the thread that reads it.
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
  if (!Number.isInteger(tid) || tid <= 0) return false
  setPriority(tid, niceness)
  return true
}
