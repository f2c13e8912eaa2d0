import { readFileSync, readdirSync } from 'node:fs'

/** Process-table reads for the no-orphans checks (no vitest import: the exit host uses them too). */

interface Row {
  pid: number
  ppid: number
  state: string
}

function processTable(): Row[] {
  const rows: Row[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      rows.push({ pid: Number(name), ppid: Number(fields[1]), state: fields[0] ?? '' })
    } catch {
      // The process ended between readdir and read: it is not running, which is all we ask.
      continue
    }
  }
  return rows
}

/** Every live process below `pid` (children, grandchildren…), read from /proc. */
export function liveDescendants(pid: number): number[] {
  const rows = processTable().filter((row) => row.state !== 'Z')
  const found: number[] = []
  const queue = [pid]
  while (queue.length > 0) {
    const parent = queue.shift() as number
    for (const row of rows) {
      if (row.ppid !== parent) continue
      found.push(row.pid)
      queue.push(row.pid)
    }
  }
  return found
}

/** Running = signal 0 succeeds and it is not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw error
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    // /proc/<pid> vanished after the signal check: the process was reaped meanwhile.
    return false
  }
}
