import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

interface ProcessRow {
  pid: number
  ppid: number
  pgid: number
}

/** Linux: /proc/<pid>/stat holds "pid (comm) state ppid pgrp …"; comm may contain spaces and parens. */
function linuxProcesses(): ProcessRow[] {
  const rows: ProcessRow[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch (error) {
      // The process ended while we looked: it needs no killing.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH') continue
      throw error
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    rows.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]) })
  }
  return rows
}

function psProcesses(): ProcessRow[] {
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid='], { encoding: 'utf8' })
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((f) => f.length === 3 && f.every(Number.isFinite))
    .map(([pid, ppid, pgid]) => ({ pid: pid as number, ppid: ppid as number, pgid: pgid as number }))
}

/**
 * The process groups of everything started below `pid` (jobs of a shell), found
 * before the shell is gone: once it exits its children are re-parented and can
 * no longer be told apart. POSIX only; Windows' ConPTY ends the whole console.
 */
export function descendantGroups(pid: number): number[] {
  if (process.platform === 'win32') return []
  const rows = process.platform === 'linux' ? linuxProcesses() : psProcesses()
  const children = new Map<number, ProcessRow[]>()
  for (const row of rows) children.set(row.ppid, [...(children.get(row.ppid) ?? []), row])
  const groups = new Set<number>()
  const queue = [pid]
  while (queue.length > 0) {
    const parent = queue.shift() as number
    for (const child of children.get(parent) ?? []) {
      if (child.pgid > 1) groups.add(child.pgid)
      queue.push(child.pid)
    }
  }
  return [...groups]
}

/** Sends `signal` to each process group, ignoring groups that are already gone. */
export function signalGroups(groups: readonly number[], signal: NodeJS.Signals): void {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, signal)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
    }
  }
}
