import { readOnlyError, type Db } from './database'

/** The process running a turn in a session (see `session/locks.ts`). */
export interface SessionLockRow {
  sessionId: string
  projectId: string
  /** `<pid>.<start time>` of that process (the start time tells a reused pid apart). */
  owner: string
  pid: number
  host: string
  /** What runs it, for messages: "hotaru run", "hotaru serve", "the Hotaru app". */
  label: string
  since: number
  heartbeat: number
}

interface Row {
  session_id: string
  project_id: string
  owner: string
  pid: number
  host: string
  label: string
  since: number
  heartbeat: number
}

function fromRow(row: Row): SessionLockRow {
  return {
    sessionId: row.session_id,
    projectId: row.project_id,
    owner: row.owner,
    pid: row.pid,
    host: row.host,
    label: row.label,
    since: row.since,
    heartbeat: row.heartbeat,
  }
}

export class SessionLocksRepo {
  constructor(private readonly db: Db) {}

  /**
   * Takes the session's lock unless `isLive` says its holder still runs: one IMMEDIATE transaction, so two
   * processes asking at once cannot both get it. Resolves with the live holder when refused.
   */
  acquire(lock: SessionLockRow, isLive: (holder: SessionLockRow) => boolean): SessionLockRow | undefined {
    // A database opened read-only (full disk) cannot hold a turn: say why, not SQLite's "readonly database".
    const readOnly = readOnlyError(this.db)
    if (readOnly) throw readOnly
    const take = this.db.transaction((): SessionLockRow | undefined => {
      const current = this.db.prepare('SELECT * FROM session_locks WHERE session_id = ?').get(lock.sessionId) as Row | undefined
      const holder = current ? fromRow(current) : undefined
      if (holder && holder.owner !== lock.owner && isLive(holder)) return holder
      this.db
        .prepare(
          `INSERT OR REPLACE INTO session_locks (session_id, project_id, owner, pid, host, label, since, heartbeat)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(lock.sessionId, lock.projectId, lock.owner, lock.pid, lock.host, lock.label, lock.since, lock.heartbeat)
      return undefined
    })
    return take.immediate()
  }

  /** Marks the lock as still held; false when it is no longer this owner's. */
  heartbeat(sessionId: string, owner: string, at: number): boolean {
    return this.db.prepare('UPDATE session_locks SET heartbeat = ? WHERE session_id = ? AND owner = ?').run(at, sessionId, owner).changes > 0
  }

  release(sessionId: string, owner: string): void {
    this.db.prepare('DELETE FROM session_locks WHERE session_id = ? AND owner = ?').run(sessionId, owner)
  }

  /** Every lock on a project's sessions, live or not (the caller tells). */
  ofProject(projectId: string): SessionLockRow[] {
    return (this.db.prepare('SELECT * FROM session_locks WHERE project_id = ? ORDER BY since').all(projectId) as Row[]).map(fromRow)
  }
}
