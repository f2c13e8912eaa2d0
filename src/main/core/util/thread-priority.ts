import { readdirSync, readFileSync, readlinkSync, stat, writeFileSync } from 'node:fs'
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

/**
 * Lowers the scheduling priority of another process of ours, and of what it starts from now on. On
 * Linux with autogroups (the default of most kernels), the scheduler first shares the CPU between
 * sessions and only then between the processes of a session by niceness: a process that started
 * its own session (a language server started `detached`) competes with this whole process as an
 * equal however nice it is. So its session's group is lowered too (`/proc/<pid>/autogroup`), but
 * only when it is not this process's own group. Returns false for a process that already ended.
 */
export function lowerProcessPriority(pid: number, niceness: number): boolean {
  try {
    setPriority(pid, niceness)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw error
  }
  if (process.platform === 'linux') {
    const group = autogroupOf(String(pid))
    if (group !== undefined && group !== autogroupOf('self')) writeFileSync(`/proc/${pid}/autogroup`, String(niceness))
  }
  return true
}

/** `/autogroup-<n>` of a process; undefined where the kernel keeps none (or the process ended). */
function autogroupOf(pid: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/autogroup`, 'utf8').split(' ')[0]
  } catch (error) {
    if (isGone(error)) return undefined
    throw error
  }
}

/** What V8's platform calls the helper threads it shares between all isolates of the process. */
const V8_HELPER_THREAD = 'V8Worker'

/**
 * Lowers V8's helper threads (concurrent and parallel garbage collection, background compiles),
 * which every isolate of the process shares. In a host with a UI their main users are the
 * background workers (a snapshot walk of a large tree allocates much more than the event loop
 * does), and at normal priority that work took a core from the main thread: on two cores the first
 * turn's longest stall went from 40–56 to 25–36 ms with them lowered. The main isolate's heap is
 * small (tens of MB), and its collector does the work itself where its helpers lag. Linux only;
 * returns how many threads were lowered.
 */
export function lowerRuntimeHelperThreads(niceness: number): number {
  if (process.platform !== 'linux') return 0
  let lowered = 0
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== V8_HELPER_THREAD) continue
      setPriority(Number(tid), niceness)
      lowered++
    } catch (error) {
      // A thread that ended while the list was read.
      if (!isGone(error)) throw error
    }
  }
  return lowered
}

/** The error of reading or changing a process or thread that has ended. */
function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ESRCH'
}
