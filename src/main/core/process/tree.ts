import { execFile, execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { processesCarrying, startTimeOf } from './marked'
import { listProcesses, type ProcessRow } from './table'

/**
 * How every process we start is ended — bash commands (foreground and background), hooks, MCP and
 * language servers, the jobs of a terminal and, at exit, whatever still carries our owner marker.
 * One policy:
 *
 * - **The tree** of a process is the process, its process group (we spawn detached, so it leads
 *   one), every descendant listed *before* the first signal (an orphan loses its parent link once
 *   its parent dies) and, on Linux, every process whose environment carries the tree's `tag`
 *   (`TREE_VARIABLE`): a double fork such as `(setsid cmd &)` leaves the group, the session and the
 *   parentage, but keeps its environment.
 * - **SIGTERM** to all of it, up to `graceMs` for them to go, the tree collected again (children
 *   started meanwhile), **SIGKILL** to what is left, and up to 2 s for that to take effect.
 * - **ESRCH** (no such process) is what we want: gone. **EPERM** means the pid exists but is not
 *   ours to signal — our child ran a setuid program, or the pid was reused by another user's
 *   process. It is never retried or waited for; it is reported in `notPermitted`. Any other error
 *   is a bug and throws.
 * - A zombie (exited, not yet reaped by its parent) counts as gone.
 *
 * `killTree` resolves with what it could not end; it does not reject for a process that ended or
 * is not ours. Windows has no groups to signal: `taskkill /T /F` ends the tree.
 */

/** Set in the environment of a process we start, with a value of its own, so its whole tree can be found. */
export const TREE_VARIABLE = 'HOTARU_PROCESS_TREE'

export interface KillResult {
  /** Still running after SIGKILL and the wait. */
  left: number[]
  /** Exist, but we may not signal them (EPERM). */
  notPermitted: number[]
}

export interface KillOptions {
  /** Before SIGKILL. Default 2 s. */
  graceMs?: number
  /** The value of `TREE_VARIABLE` the tree's processes were started with (`treeTag()`). */
  tag?: string
}

/** A new value for `TREE_VARIABLE`; put it into the child's environment and pass it to `killTree`. */
export function treeTag(): string {
  return randomUUID()
}

/** What a kill could not end, for a message; undefined when it ended everything. */
export function describeLeft(result: KillResult): string | undefined {
  const parts: string[] = []
  if (result.left.length > 0) parts.push(`still running after SIGKILL: ${result.left.join(', ')}`)
  if (result.notPermitted.length > 0) parts.push(`not ours to signal (EPERM): ${result.notPermitted.join(', ')}`)
  return parts.length > 0 ? parts.join('; ') : undefined
}

type Signalled = 'sent' | 'gone' | 'not-permitted'

/** Sends `sig` to a process (positive id) or a process group (negative id), by the policy above. */
export function signal(id: number, sig: NodeJS.Signals | 0): Signalled {
  try {
    process.kill(id, sig)
    return 'sent'
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ESRCH') return 'gone'
    if (code === 'EPERM') return 'not-permitted'
    throw error
  }
}

/** Sends `sig` to each process group; groups already gone are skipped. */
export function signalGroups(groups: readonly number[], sig: NodeJS.Signals): void {
  for (const pgid of groups) signal(-pgid, sig)
}

function zombie(pid: number): boolean {
  if (process.platform !== 'linux') return false
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z'
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true
    throw error
  }
}

/** Whether `pid` runs and is ours to wait for: gone, a zombie and EPERM all count as not. */
export function isAlive(pid: number): boolean {
  return signal(pid, 0) === 'sent' && !zombie(pid)
}

/** Whether anything is left in the process group `pgid` (signal 0: no process table needed). */
export function groupAlive(pgid: number): boolean {
  if (process.platform === 'win32') return true
  return signal(-pgid, 0) !== 'gone'
}

function childrenByParent(rows: ProcessRow[]): Map<number, ProcessRow[]> {
  const children = new Map<number, ProcessRow[]>()
  for (const row of rows) {
    if (row.zombie) continue
    children.set(row.ppid, [...(children.get(row.ppid) ?? []), row])
  }
  return children
}

function below(pid: number, children: Map<number, ProcessRow[]>): ProcessRow[] {
  const found: ProcessRow[] = []
  const queue = [pid]
  while (queue.length > 0) {
    const parent = queue.shift() as number
    for (const child of children.get(parent) ?? []) {
      found.push(child)
      queue.push(child.pid)
    }
  }
  return found
}

/** Every live process below `pid`, found while `pid` still runs. POSIX only. */
export function descendants(pid: number): number[] {
  if (process.platform === 'win32') return []
  return below(pid, childrenByParent(listProcesses())).map((row) => row.pid)
}

/** The process groups of everything below `pid` (a shell's jobs), found while `pid` still runs. POSIX only. */
export function descendantGroups(pid: number): number[] {
  if (process.platform === 'win32') return []
  return [...new Set(below(pid, childrenByParent(listProcesses())).map((row) => row.pgid).filter((pgid) => pgid > 1))]
}

/** Live members of a process group. POSIX only. */
export function groupMembers(pgid: number): number[] {
  if (process.platform === 'win32') return []
  return listProcesses()
    .filter((row) => row.pgid === pgid && !row.zombie)
    .map((row) => row.pid)
}

/**
 * Linux: processes whose environment carries `TREE_VARIABLE=tag`. Only processes started since the tree's
 * root (`pid`; this process's start when the root is gone) can: see `marked.ts` for what is read.
 */
export function taggedProcesses(tag: string, pid?: number, rows: ProcessRow[] = listProcesses()): number[] {
  if (process.platform !== 'linux') return []
  const root = pid === undefined ? undefined : rows.find((row) => row.pid === pid && !row.zombie)
  const since = root?.start ?? startTimeOf(process.pid) ?? 0
  return processesCarrying(TREE_VARIABLE, tag, since, rows)
}

function treeOf(pid: number, tag: string | undefined): number[] {
  const rows = listProcesses()
  const members = rows.filter((row) => row.pgid === pid && !row.zombie).map((row) => row.pid)
  const tagged = tag ? taggedProcesses(tag, pid, rows) : []
  return [pid, ...below(pid, childrenByParent(rows)).map((row) => row.pid), ...members, ...tagged]
}

const POLL_MS = 25
const KILL_WAIT_MS = 2_000

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Ends `pid` and everything it started, by the policy above. */
export async function killTree(pid: number, options: KillOptions = {}): Promise<KillResult> {
  if (process.platform === 'win32') return taskkill(pid)
  // Already gone with its whole group (a server that honoured its exit request): no process table to read.
  if (options.tag === undefined && !isAlive(pid) && !groupAlive(pid)) return { left: [], notPermitted: [] }
  const known = new Set(treeOf(pid, options.tag))
  const notPermitted = new Set<number>()
  const send = (id: number, sig: NodeJS.Signals): void => {
    if (signal(id, sig) === 'not-permitted' && id > 0) notPermitted.add(id)
  }
  // Polled every POLL_MS: the process table (a read of every /proc entry, on the event loop) is only
  // scanned while the group still has members.
  const remaining = (): number[] =>
    [...new Set([...known, ...(groupAlive(pid) ? groupMembers(pid) : [])])].filter((p) => !notPermitted.has(p) && isAlive(p))
  send(-pid, 'SIGTERM')
  for (const member of known) send(member, 'SIGTERM')
  const graceEnd = Date.now() + (options.graceMs ?? 2_000)
  while (remaining().length > 0 && Date.now() < graceEnd) await sleep(POLL_MS)
  // Something ignored SIGTERM, or started more children meanwhile: collect them too.
  for (const member of remaining()) for (const p of treeOf(member, options.tag)) known.add(p)
  send(-pid, 'SIGKILL')
  for (const member of remaining()) send(member, 'SIGKILL')
  const killEnd = Date.now() + KILL_WAIT_MS
  while (remaining().length > 0 && Date.now() < killEnd) await sleep(POLL_MS)
  return { left: remaining(), notPermitted: [...notPermitted] }
}

/** Synchronous last resort at process exit: no time is left to wait for a graceful end. */
export function killTreeNow(pid: number, tag?: string): void {
  if (process.platform === 'win32') {
    execFileSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' })
    return
  }
  for (const member of treeOf(pid, tag)) signal(member, 'SIGKILL')
  signal(-pid, 'SIGKILL')
}

function taskkill(pid: number): Promise<KillResult> {
  return new Promise((resolve, reject) => {
    execFile('taskkill', ['/pid', String(pid), '/T', '/F'], (error, _stdout, stderr) => {
      // 128: "process not found" — it ended on its own.
      if (error && error.code !== 128) reject(new Error(`taskkill ${pid} failed: ${stderr.trim() || error.message}`))
      else resolve({ left: [], notPermitted: [] })
    })
  })
}
