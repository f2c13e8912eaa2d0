import { listProcesses, type ProcessRow } from '../util/processes'

/**
 * The process groups of everything started below `pid` (jobs of a shell), found
 * before the shell is gone: once it exits its children are re-parented and can
 * no longer be told apart. POSIX only; Windows' ConPTY ends the whole console.
 */
export function descendantGroups(pid: number): number[] {
  if (process.platform === 'win32') return []
  const rows = listProcesses()
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
