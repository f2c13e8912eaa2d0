import { readdirSync, readFileSync } from 'node:fs'

/** The niceness in a `/proc/…/stat` line (field 19, after the parenthesized name). */
function nicenessIn(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
}

/** The niceness of a process, or of one thread with `/proc/<path>` (`self/task/<tid>`, `thread-self`'s target). */
export function niceness(path: number | string): number {
  return nicenessIn(readFileSync(`/proc/${path}/stat`, 'utf8'))
}

/** The niceness of each thread of a process (`self` for this one), by thread name. */
export function threadNiceness(pid: number | 'self'): Map<string, number[]> {
  const byName = new Map<string, number[]>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()
      byName.set(name, [...(byName.get(name) ?? []), niceness(`${pid}/task/${tid}`)])
    } catch (error) {
      // A thread that ended while the list was read.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return byName
}
