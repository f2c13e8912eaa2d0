import { hostname } from 'node:os'
import { HotaruError } from '@shared/errors'
import { startTimeOf } from '../process/marked'
import { signal } from '../process/tree'
import type { SessionLockRow, SessionLocksRepo } from '../storage/session-locks-repo'
import { log } from '../util/log'
import { SessionErrorNames } from './errors'

/**
 * One session, one writer, across processes. A turn holds its session's row in `session_locks` (in the
 * shared SQLite database) from its start to its end. Another process asking for the same session is
 * refused with who holds it (`SessionBusy`); a restore is refused while any turn holds a session of its
 * project (`ProjectBusy`). Within one process the agent's per-session queue already orders turns.
 *
 * A holder that crashed must not lock the session forever: on this machine its pid and start time say
 * whether it still runs (a `kill -9`, a reboot and a reused pid all read as gone, at once); a holder on
 * another machine or in another pid namespace (a data folder shared with a container) is gone when its
 * heartbeat, renewed every `HEARTBEAT_MS`, is older than `STALE_MS`.
 */
export const HEARTBEAT_MS = 10_000
export const STALE_MS = 60_000

/** `<pid>.<start time>` of this process: the start time tells a reused pid apart. */
function ownToken(): string {
  return `${process.pid}.${startTimeOf(process.pid) ?? 'unknown'}`
}

function ownerRuns(holder: SessionLockRow): boolean {
  const start = startTimeOf(holder.pid)
  if (start !== undefined) return holder.owner === `${holder.pid}.${start}`
  // No /proc (macOS, Windows): whether the pid runs at all.
  return process.platform !== 'linux' && signal(holder.pid, 0) !== 'gone'
}

export interface HeldLock {
  release(): void
}

function clock(at: number): string {
  return new Date(at).toLocaleTimeString()
}

/** "hotaru run, pid 123, since 10:02:03" — who runs a turn, for messages. */
export function describeHolder(holder: SessionLockRow): string {
  const where = holder.host === hostname() ? `pid ${holder.pid}` : `pid ${holder.pid} on ${holder.host}`
  return `${holder.label}, ${where}, since ${clock(holder.since)}`
}

export class SessionLocks {
  private readonly token = ownToken()
  private readonly host = hostname()

  constructor(
    private readonly repo: SessionLocksRepo,
    /** What this process is, for others' messages: "hotaru run", "hotaru serve", "the Hotaru app". */
    private readonly label: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the process holding a lock still runs (see above). */
  isLive(holder: SessionLockRow): boolean {
    if (holder.owner === this.token) return true
    if (holder.host === this.host) return ownerRuns(holder)
    return this.now() - holder.heartbeat < STALE_MS
  }

  /** Takes the session for a turn, or throws `SessionBusy` naming the process that has it. */
  hold(sessionId: string, projectId: string): HeldLock {
    const at = this.now()
    const lock: SessionLockRow = { sessionId, projectId, owner: this.token, pid: process.pid, host: this.host, label: this.label, since: at, heartbeat: at }
    const holder = this.repo.acquire(lock, (row) => this.isLive(row))
    if (holder) {
      throw new HotaruError(SessionErrorNames.SessionBusy, {
        message:
          `session ${sessionId} is busy: a turn is running in it in another process (${describeHolder(holder)}). ` +
          'One turn runs in a session at a time: wait for that turn to end or stop it, then send again, or start a new session.',
        sessionId,
      })
    }
    const beat = setInterval(() => {
      try {
        if (!this.repo.heartbeat(sessionId, this.token, this.now())) log.warn(`[session] the lock of ${sessionId} was taken over by another process`)
      } catch (error) {
        // A full disk must not end the turn from a timer; on this machine the pid still tells that we run.
        log.warn(`[session] cannot renew the lock of ${sessionId}: ${(error as Error).message}`)
      }
    }, HEARTBEAT_MS)
    beat.unref()
    let released = false
    return {
      release: () => {
        if (released) return
        released = true
        clearInterval(beat)
        this.repo.release(sessionId, this.token)
      },
    }
  }

  /** A turn running in one of the project's sessions, in any process (this one included). */
  runningIn(projectId: string): SessionLockRow | undefined {
    return this.repo.ofProject(projectId).find((holder) => this.isLive(holder))
  }

  /** Throws `ProjectBusy` while a turn runs in one of the project's sessions: `what` would change files under it. */
  refuseWhileRunning(projectId: string, what: string): void {
    const holder = this.runningIn(projectId)
    if (!holder) return
    throw new HotaruError(SessionErrorNames.ProjectBusy, {
      message:
        `cannot ${what} now: a turn is running in session ${holder.sessionId} of this project (${describeHolder(holder)}), ` +
        'and it would change files under that turn. Wait for the turn to end or stop it, then try again.',
      sessionId: holder.sessionId,
    })
  }
}
