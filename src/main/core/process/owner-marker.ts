import childProcess, { ChildProcess } from 'node:child_process'
import { syncBuiltinESMExports } from 'node:module'
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { log } from '../util/log'
import { processesCarrying, startTimeOf } from './marked'
import { signal } from './tree'

/**
 * Every process the app starts (MCP servers, bash commands, hooks, terminals, whatever custom tools spawn)
 * inherits this variable, naming the app process that owns it. A child that double-forks into its own session
 * (`setsid … &`) leaves our process group but keeps its environment, so on Linux it is still found and ended
 * when the app exits. How it is found reads no environment it has no business reading: see `marked.ts`.
 *
 * The owners are listed in the data folder (`processes/<token>`, written at start, removed at a clean exit).
 * After a `kill -9` of the app nothing runs at its exit: its entry stays, and the next start ends what that
 * dead owner left behind. With no dead owner listed — the usual case — a start looks at no process at all.
 * Elsewhere process groups are the mechanism (no /proc). Processes are signalled by the policy of `tree.ts`
 * (ESRCH: gone; EPERM: not ours, reported).
 */
export const OWNER_VARIABLE = 'HOTARU_PROCESS_OWNER'

/** The folder of the data dir listing the app processes that may own running processes. */
export const OWNERS_FOLDER = 'processes'

let installed: string | undefined
let registry: string | undefined
/** Whether this process started any child: with none, nothing can carry its marker and exit looks at no process. */
let childStarted = false

/** A child was started outside Node's `child_process` (a terminal's pty). */
export function noteChildStarted(): void {
  childStarted = true
}

/**
 * Every `spawn`, `execFile`, `exec` and `fork` of Node goes through `ChildProcess.prototype.spawn`, and the
 * synchronous three are module functions: noting them there covers the libraries and extensions that start
 * processes too (the MCP and language-server clients, git, custom tools), where a list of our own call
 * sites would miss some.
 */
function noteSpawns(): void {
  const proto = ChildProcess.prototype as unknown as { spawn: (...args: unknown[]) => unknown }
  const original = proto.spawn
  proto.spawn = function spawnNoted(this: unknown, ...args: unknown[]): unknown {
    childStarted = true
    return original.apply(this, args)
  }
  const functions = childProcess as unknown as Record<'spawnSync' | 'execFileSync' | 'execSync', (...args: unknown[]) => unknown>
  for (const name of ['spawnSync', 'execFileSync', 'execSync'] as const) {
    const sync = functions[name]
    functions[name] = (...args: unknown[]): unknown => {
      childStarted = true
      return sync(...args)
    }
  }
  // ES modules that imported these by name see the noted ones too.
  syncBuiltinESMExports()
}

/** `<pid>.<start time>`: the start time tells a live owner from a new process that reused its pid. */
function tokenOf(pid: number): string | undefined {
  const start = startTimeOf(pid)
  return start === undefined ? undefined : `${pid}.${start}`
}

function parseToken(token: string): { pid: number; start: number } | undefined {
  const match = /^(\d+)\.(\d+)$/.exec(token)
  return match ? { pid: Number(match[1]), start: Number(match[2]) } : undefined
}

function ownerIsAlive(token: string): boolean {
  const parsed = parseToken(token)
  return parsed !== undefined && tokenOf(parsed.pid) === token
}

/**
 * Marks this process's future children (sets the variable in `process.env`, inherited by every spawn) and
 * lists this process as an owner in `dataDir`. An owner that cannot be listed (a full or read-only disk)
 * still ends its own processes at exit; only a crash's leftovers would then wait for a later start.
 */
export function installProcessMarker(dataDir?: string): string | undefined {
  if (installed !== undefined) return installed
  if (process.platform !== 'linux') return undefined
  installed = tokenOf(process.pid)
  if (!installed) return undefined
  process.env[OWNER_VARIABLE] = installed
  noteSpawns()
  if (dataDir !== undefined) {
    const folder = join(dataDir, OWNERS_FOLDER)
    try {
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, installed), '')
      registry = folder
    } catch (error) {
      log.warn(`[processes] cannot list this process in ${folder}; what a crash leaves running is not ended at the next start: ${(error as Error).message}`)
    }
  }
  return installed
}

/** Processes whose environment carries the owner `token` (never this process). */
export function processesOf(token: string): number[] {
  const parsed = parseToken(token)
  return parsed ? processesCarrying(OWNER_VARIABLE, token, parsed.start) : []
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

function unlist(folder: string, token: string): void {
  try {
    rmSync(join(folder, token), { force: true })
  } catch (error) {
    log.warn(`[processes] cannot remove ${join(folder, token)}: ${(error as Error).message}`)
  }
}

/** At exit: ends every process still carrying this process's token (what graceful shutdown did not reach). */
export function endOwnProcesses(): number {
  if (!installed) return 0
  const killed = childStarted ? killAll(processesOf(installed)) : 0
  if (registry) unlist(registry, installed)
  return killed
}

/** Owners listed in `dataDir` that are gone (a crash, `kill -9`). */
export function deadOwners(dataDir: string): string[] {
  let entries: string[]
  try {
    entries = readdirSync(join(dataDir, OWNERS_FOLDER))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return entries.filter((token) => parseToken(token) !== undefined && token !== installed && !ownerIsAlive(token))
}

/** At start: ends processes whose owner, listed in `dataDir`, is gone, and forgets those owners. */
export function endOrphanedProcesses(dataDir: string): number {
  let killed = 0
  for (const token of deadOwners(dataDir)) {
    killed += killAll(processesOf(token))
    unlist(join(dataDir, OWNERS_FOLDER), token)
  }
  if (killed > 0) log.info(`[processes] ended ${killed} process(es) left behind by an app that did not exit cleanly`)
  return killed
}

/**
 * How long after start the app looks for what a dead owner left behind: it is not on the way to the first
 * model request of `hotaru run`, and those leftovers have waited since the crash already.
 */
export const ORPHAN_SWEEP_DELAY_MS = 1_000

/**
 * The app's sweeps of marked processes: orphans of dead owners a moment after start
 * (`ORPHAN_SWEEP_DELAY_MS`), and at shutdown its own, with the orphans too when that moment has not come
 * yet, so a short command still ends them.
 */
export class ProcessSweeps {
  private orphansPending = true
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly dataDir: string,
    delayMs = ORPHAN_SWEEP_DELAY_MS,
  ) {
    this.timer = setTimeout(() => this.sweepOrphans(), delayMs)
    this.timer.unref()
  }

  private sweepOrphans(): void {
    if (!this.orphansPending) return
    this.orphansPending = false
    try {
      endOrphanedProcesses(this.dataDir)
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
    return endOwnProcesses() + (orphans ? endOrphanedProcesses(this.dataDir) : 0)
  }
}
