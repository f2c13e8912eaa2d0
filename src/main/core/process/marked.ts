import { readFileSync, statSync } from 'node:fs'
import { environOf, listProcesses, type ProcessRow } from './table'

/**
 * Linux: the processes whose environment carries `variable=value`, a marker set only in processes
 * started at or after `since` (clock ticks since boot, as in `/proc/<pid>/stat`).
 *
 * Only the process table is read for everyone (what `ps` reads). An environment is read only where
 * the marker can have come from: a process of this user, started at or after `since`, whose parent
 * is older than that (it was re-parented after a double fork, or this process or an unrelated one
 * started it). A younger process whose parent is younger too inherited what its parent carries, so
 * its verdict is its parent's. Other users' processes and everything older than `since` are never
 * opened, so a start-up or a kill costs a table read, not a read of every environment on the machine.
 */
export function processesCarrying(variable: string, value: string, since: number, rows: ProcessRow[] = listProcesses()): number[] {
  if (process.platform !== 'linux') return []
  const entry = `${variable}=${value}`
  const byPid = new Map(rows.map((row) => [row.pid, row]))
  const verdicts = new Map<number, boolean>()
  const uid = process.getuid?.()
  const carries = (row: ProcessRow): boolean => {
    // Walk up while the parent is younger than the marker too; the first process whose parent is not decides.
    const chain: ProcessRow[] = []
    let current: ProcessRow | undefined = row
    let verdict: boolean | undefined
    while (current && verdict === undefined) {
      const known = verdicts.get(current.pid)
      if (known !== undefined) {
        verdict = known
        break
      }
      chain.push(current)
      if (current.start === undefined || current.start < since) {
        verdict = false
        break
      }
      const parent = byPid.get(current.ppid)
      const inherits = parent !== undefined && parent.pid !== process.pid && parent.start !== undefined && parent.start >= since
      if (!inherits) verdict = ownedBy(current.pid, uid) && (environOf(current.pid)?.includes(entry) ?? false)
      current = inherits ? parent : undefined
    }
    for (const seen of chain) verdicts.set(seen.pid, verdict ?? false)
    return verdict ?? false
  }
  return rows.filter((row) => !row.zombie && row.pid !== process.pid && carries(row)).map((row) => row.pid)
}

/** Whether `pid` runs as `uid` (a stat of its /proc folder: nothing of the process is read). */
function ownedBy(pid: number, uid: number | undefined): boolean {
  if (uid === undefined) return true
  try {
    return statSync(`/proc/${pid}`).uid === uid
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ESRCH') return false
    throw error
  }
}

/** Linux: when `pid` started, in clock ticks since boot; undefined when it is gone, a zombie, or there is no /proc. */
export function startTimeOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces and parentheses): state is 3, start time 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[0] === 'Z' ? undefined : Number(fields[19])
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ESRCH') return undefined
    throw error
  }
}
