import type { TrustDecision } from '@shared/ipc/trust'
import type { Db } from './database'

/** One stored decision: a folder (canonical realpath) trusted or kept restricted; `trust.list` answers with these. */
export type TrustRow = TrustDecision

/** Workspace trust decisions, keyed by the folder's canonical path. */
export class TrustRepo {
  constructor(private readonly db: Db) {}

  list(): TrustRow[] {
    const rows = this.db.prepare('SELECT path, trusted, decided_at FROM trusted_folders ORDER BY path').all() as Array<{
      path: string
      trusted: number
      decided_at: number
    }>
    return rows.map((row) => ({ path: row.path, trusted: row.trusted === 1, decidedAt: row.decided_at }))
  }

  set(path: string, trusted: boolean, now = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO trusted_folders (path, trusted, decided_at) VALUES (?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET trusted = excluded.trusted, decided_at = excluded.decided_at`,
      )
      .run(path, trusted ? 1 : 0, now)
  }

  /** Forgets the decision for exactly this folder; true when there was one. */
  delete(path: string): boolean {
    return this.db.prepare('DELETE FROM trusted_folders WHERE path = ?').run(path).changes > 0
  }
}
