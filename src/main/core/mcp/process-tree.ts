import { execFile, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { listProcesses, type ProcessRow } from '../util/processes'

/**
 * Every live process below `pid`, found while `pid` still runs: once it exits its
 * children are re-parented and can no longer be told apart. POSIX only.
 */
export function descendants(pid: number): number[] {
  if (process.platform === 'win32') return []
  const children = new Map<number, ProcessRow[]>()
  for (const row of listProcesses()) {
    if (row.zombie) continue
    children.set(row.ppid, [...(children.get(row.ppid) ?? []), row])
  }
  const found: number[] = []
  const queue = [pid]
  while (queue.length > 0) {
    const parent = queue.shift() as number
    for (const child of children.get(parent) ?? []) {
      found.push(child.pid)
      queue.push(child.pid)
    }
  }
  return found
}

/** Live (non-zombie) members of a process group. POSIX only. */
export function groupMembers(pgid: number): number[] {
  if (process.platform === 'win32') return []
  return listProcesses()
    .filter((row) => row.pgid === pgid && !row.zombie)
    .map((row) => row.pid)
}

/**
 * Whether any process (a zombie included) is still in the group: one signal-0
 * syscall instead of reading the whole process table.
 */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ESRCH') return false
    if (code === 'EPERM') return true
    throw error
  }
}

/** Whether `pid` runs; a zombie (exited, not yet reaped) counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    // EPERM: it exists but belongs to someone else (a re-used pid), which is not ours to wait for.
    if ((error as NodeJS.ErrnoException).code === 'EPERM') return false
    throw error
  }
  if (process.platform !== 'linux') return true
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}

/** Sends `signal` to a process (positive id) or a process group (negative id) that may be gone already. */
export function signal(id: number, sig: NodeJS.Signals): void {
  try {
    process.kill(id, sig)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ESRCH' || code === 'EPERM') return
    throw error
  }
}

const POLL_MS = 25

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Ends a server's whole process tree: its own process group (started detached, so
 * `npx` → `node` chains share it) plus any descendant that left the group. SIGTERM
 * first so servers can clean up, SIGKILL for whatever is still there after `graceMs`.
 * Resolves once nothing of the tree is alive.
 */
export async function killTree(pid: number, graceMs: number): Promise<void> {
  if (process.platform === 'win32') {
    await taskkill(pid)
    return
  }
  const known = new Set([pid, ...descendants(pid), ...groupMembers(pid)])
  // Polled every 25 ms: the process table (a read of every /proc entry, on the event loop) is
  // only scanned while the group still has members.
  const remaining = (): number[] => [...new Set([...known, ...(groupExists(pid) ? groupMembers(pid) : [])])].filter(isAlive)
  signal(-pid, 'SIGTERM')
  for (const member of known) signal(member, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (remaining().length > 0 && Date.now() < deadline) await sleep(POLL_MS)
  // Something ignored SIGTERM, or a child started more children meanwhile: collect them too.
  for (const member of remaining()) for (const child of descendants(member)) known.add(child)
  signal(-pid, 'SIGKILL')
  for (const member of remaining()) signal(member, 'SIGKILL')
  const hardDeadline = Date.now() + 2_000
  while (remaining().length > 0 && Date.now() < hardDeadline) await sleep(POLL_MS)
  const left = remaining()
  if (left.length > 0) throw new Error(`processes ${left.join(', ')} of MCP server ${pid} survived SIGKILL`)
}

/** Synchronous last resort at process exit: no time is left to wait for a graceful end. */
export function killTreeNow(pid: number): void {
  if (process.platform === 'win32') {
    execFileSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' })
    return
  }
  for (const member of descendants(pid)) signal(member, 'SIGKILL')
  signal(-pid, 'SIGKILL')
}

function taskkill(pid: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('taskkill', ['/pid', String(pid), '/T', '/F'], (error, _stdout, stderr) => {
      // 128: "process not found" — it ended on its own.
      if (error && error.code !== 128) reject(new Error(`taskkill ${pid} failed: ${stderr.trim() || error.message}`))
      else resolve()
    })
  })
}
