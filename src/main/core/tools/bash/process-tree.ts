import { execFileSync, type ChildProcess } from 'node:child_process'

/** All descendants of `pid` (children, grandchildren…), from the process table. */
export function descendants(pid: number): number[] {
  if (process.platform === 'win32') return []
  let table: string
  try {
    table = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', timeout: 5000 })
  } catch (error) {
    // Without ps we can still signal the process group, which covers everything that did not setsid.
    console.warn(`[bash] cannot list processes: ${(error as Error).message}`)
    return []
  }
  const children = new Map<number, number[]>()
  for (const line of table.split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number)
    if (!p || pp === undefined || Number.isNaN(pp)) continue
    const list = children.get(pp) ?? []
    list.push(p)
    children.set(pp, list)
  }
  const found: number[] = []
  const queue = [pid]
  while (queue.length > 0) {
    const next = queue.shift() as number
    for (const child of children.get(next) ?? []) {
      found.push(child)
      queue.push(child)
    }
  }
  return found
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig)
  } catch (error) {
    // ESRCH: it is already gone, which is what we want.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Ends a command and everything it started: the process group (children are spawned
 * detached, so the shell leads its own group) and every descendant found in the
 * process table (covering those that left the group with setsid). SIGTERM first,
 * SIGKILL for whatever is left after the grace period. The tree is listed before
 * the first signal, because orphans lose their parent link once the shell dies.
 */
export async function killTree(pid: number, graceMs = 2000): Promise<void> {
  if (process.platform === 'win32') {
    try {
      execFileSync('taskkill', ['/pid', String(pid), '/T', '/F'], { timeout: 10_000 })
    } catch (error) {
      console.warn(`[bash] taskkill failed for ${pid}: ${(error as Error).message}`)
    }
    return
  }
  const tree = [pid, ...descendants(pid)]
  signalGroup(pid, 'SIGTERM')
  for (const p of tree) signal(p, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (Date.now() < deadline && tree.some(alive)) await new Promise((r) => setTimeout(r, 50))
  const rest = [...new Set([...tree, ...descendants(pid)])].filter(alive)
  signalGroup(pid, 'SIGKILL')
  for (const p of rest) signal(p, 'SIGKILL')
}

function signalGroup(pid: number, sig: NodeJS.Signals): void {
  signal(-pid, sig)
}

/** Resolves when the child has exited and its output pipes are drained (or after `drainMs` if something else holds them). */
export function waitForExit(child: ChildProcess, drainMs = 250): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
    let done = false
    let drain: NodeJS.Timeout | undefined
    const finish = (): void => {
      if (done || !exit) return
      done = true
      // A pending drain timer would keep the process alive after the last answer.
      clearTimeout(drain)
      resolve(exit)
    }
    child.once('close', (code, sig) => {
      exit ??= { code, signal: sig }
      finish()
    })
    child.once('exit', (code, sig) => {
      exit = { code, signal: sig }
      // A process the command left behind may hold the pipes open: do not wait for it forever.
      drain = setTimeout(finish, drainMs)
    })
    child.once('error', () => {
      exit ??= { code: null, signal: null }
      finish()
    })
  })
}
