import { readdirSync, readFileSync } from 'node:fs'
import { log } from '../util/log'
import { environOf } from './table'
import { signal } from './tree'

/**
 * Every process the app starts (MCP servers, bash commands, hooks, terminals, whatever custom tools spawn)
 * inherits this variable, naming the app process that owns it. A child that double-forks into its own session
 * (`setsid … &`) leaves our process group but keeps its environment, so on Linux it is still found, through
 * /proc/<pid>/environ, and ended when the app exits. After a `kill -9` of the app nothing runs at its exit: the
 * next start ends what a dead owner left behind. Elsewhere process groups are the mechanism (no /proc).
 * Processes are signalled by the policy of `tree.ts` (ESRCH: gone; EPERM: not ours, reported).
 */
export const OWNER_VARIABLE = 'HOTARU_PROCESS_OWNER'

let installed: string | undefined

/** `<pid>.<start time>`: the start time tells a live owner from a new process that reused its pid. */
function tokenOf(pid: number): string | undefined {
  const start = startTimeOf(pid)
  return start === undefined ? undefined : `${pid}.${start}`
}

function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces and parentheses): state is 3, start time 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[0] === 'Z' ? undefined : fields[19]
  } catch {
    return undefined // gone, or no /proc on this system
  }
}

function ownerIsAlive(token: string): boolean {
  const [pid] = token.split('.')
  return tokenOf(Number(pid)) === token
}

/** Marks this process's future children (sets the variable in `process.env`, inherited by every spawn). */
export function installProcessMarker(): string | undefined {
  if (installed !== undefined) return installed
  if (process.platform !== 'linux') return undefined
  installed = tokenOf(process.pid)
  if (installed) process.env[OWNER_VARIABLE] = installed
  return installed
}

/** Processes whose environment carries an owner token, with that token (never this process). */
export function markedProcesses(): { pid: number; owner: string }[] {
  if (process.platform !== 'linux') return []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch (error) {
    log.warn('[processes] cannot list /proc:', (error as Error).message)
    return []
  }
  const found: { pid: number; owner: string }[] = []
  const prefix = `${OWNER_VARIABLE}=`
  for (const entry of entries) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue
    const variable = environOf(pid)?.find((v) => v.startsWith(prefix))
    if (variable) found.push({ pid, owner: variable.slice(prefix.length) })
  }
  return found
}

function killAll(pids: number[]): number {
  let killed = 0
  for (const pid of pids) {
    const sent = signal(pid, 'SIGKILL')
    if (sent === 'sent') killed++
    else if (sent === 'not-permitted') log.warn(`[processes] cannot end ${pid}: not ours to signal (EPERM)`)
  }
  return killed
}

/** Ends the marked processes that are this process's own (`own`) or whose owner is gone (`orphans`), in one scan. */
function endMarked(which: { own: boolean; orphans: boolean }): number {
  const token = installed
  const marked = markedProcesses()
  const own = which.own && token !== undefined ? marked.filter((p) => p.owner === token) : []
  const orphans = which.orphans ? marked.filter((p) => p.owner !== token && !ownerIsAlive(p.owner)) : []
  const killedOrphans = killAll(orphans.map((p) => p.pid))
  if (killedOrphans > 0) log.info(`[processes] ended ${killedOrphans} process(es) left behind by an app that did not exit cleanly`)
  return killAll(own.map((p) => p.pid)) + killedOrphans
}

/** At exit: ends every process still carrying this process's token (what graceful shutdown did not reach). */
export function endOwnProcesses(): number {
  if (!installed) return 0
  return endMarked({ own: true, orphans: false })
}

/** At start: ends processes whose owner is gone (an app killed with SIGKILL, a crash). */
export function endOrphanedProcesses(): number {
  return endMarked({ own: false, orphans: true })
}

/**
 * How long after start the app looks for what a dead owner left behind. The scan reads the environment
 * of every process on the machine (milliseconds, more with many processes): done at once it would hold
 * up the first model request of `hotaru run`, and those leftovers have waited since the crash already.
 */
export const ORPHAN_SWEEP_DELAY_MS = 1_000

/**
 * The app's sweeps of marked processes: orphans a moment after start (`ORPHAN_SWEEP_DELAY_MS`), and at
 * shutdown its own, with the orphans too when that moment has not come yet (one scan for both), so a
 * short command still ends them.
 */
export class ProcessSweeps {
  private orphansPending = true
  private readonly timer: NodeJS.Timeout

  constructor(delayMs = ORPHAN_SWEEP_DELAY_MS) {
    this.timer = setTimeout(() => this.sweepOrphans(), delayMs)
    this.timer.unref()
  }

  private sweepOrphans(): void {
    if (!this.orphansPending) return
    this.orphansPending = false
    try {
      endOrphanedProcesses()
    } catch (error) {
      // Nobody awaits a timer: the failure is logged; the next start looks again.
      log.error('[processes] could not end processes left behind:', (error as Error).message)
    }
  }

  /** At shutdown: ends this process's own leftovers, and orphans when their sweep has not run yet. */
  endAtShutdown(): number {
    clearTimeout(this.timer)
    const orphans = this.orphansPending
    this.orphansPending = false
    if (!installed && !orphans) return 0
    return endMarked({ own: true, orphans })
  }
}
