import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

export interface ProcessRow {
  pid: number
  ppid: number
  pgid: number
  /** Exited but not yet reaped by its parent. */
  zombie: boolean
  /** Linux: when it started, in clock ticks since boot (`/proc/<pid>/stat` field 22). */
  start?: number
}

/** Linux: /proc/<pid>/stat is "pid (comm) state ppid pgrp …"; comm may hold spaces and parens. */
function linuxProcesses(): ProcessRow[] {
  const rows: ProcessRow[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch (error) {
      // The process ended while we looked: nothing to find or kill.
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ESRCH') continue
      throw error
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    rows.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]), zombie: fields[0] === 'Z', start: Number(fields[19]) })
  }
  return rows
}

function psProcesses(): ProcessRow[] {
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { encoding: 'utf8' })
  const rows: ProcessRow[] = []
  for (const line of out.split('\n')) {
    const [pid, ppid, pgid, stat = ''] = line.trim().split(/\s+/)
    if (pid === undefined || ppid === undefined || pgid === undefined) continue
    const row = { pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: stat.startsWith('Z') }
    if ([row.pid, row.ppid, row.pgid].every(Number.isFinite)) rows.push(row)
  }
  return rows
}

/** Every process of the machine with its parent and group (POSIX; /proc on Linux, `ps` elsewhere). */
export function listProcesses(): ProcessRow[] {
  return process.platform === 'linux' ? linuxProcesses() : psProcesses()
}

/**
 * Linux: the environment `pid` was started with, as `NAME=value` entries; undefined when it is gone or
 * not readable by us (another user's process, which is not ours either way).
 */
export function environOf(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ESRCH' || code === 'EACCES' || code === 'EPERM') return undefined
    throw error
  }
}
