import { isReadOnlyFallback, type Db } from './database'

export interface ProjectRow {
  id: string
  root: string
  name: string
  createdAt: number
  lastOpenedAt: number
}

interface RawProjectRow {
  id: string
  root: string
  name: string
  created_at: number
  last_opened_at: number
}

const fromRaw = (r: RawProjectRow): ProjectRow => ({
  id: r.id,
  root: r.root,
  name: r.name,
  createdAt: r.created_at,
  lastOpenedAt: r.last_opened_at,
})

export class ProjectsRepo {
  constructor(private readonly db: Db) {}

  byRoot(root: string): ProjectRow | undefined {
    const row = this.db.prepare('SELECT * FROM projects WHERE root = ?').get(root) as RawProjectRow | undefined
    return row && fromRaw(row)
  }

  byId(id: string): ProjectRow | undefined {
    const row = this.db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as RawProjectRow | undefined
    return row && fromRaw(row)
  }

  /** Inserts the project or, when its root is known, marks it opened now. */
  touch(candidate: { id: string; root: string; name: string }, now = Date.now()): ProjectRow {
    // Read-only on a full disk: a known project opens as it was recorded, a new one for this process only.
    if (isReadOnlyFallback(this.db)) return this.byRoot(candidate.root) ?? { ...candidate, createdAt: now, lastOpenedAt: now }
    this.db
      .prepare(
        `INSERT INTO projects (id, root, name, created_at, last_opened_at) VALUES (@id, @root, @name, @now, @now)
         ON CONFLICT(root) DO UPDATE SET last_opened_at = @now, name = @name`,
      )
      .run({ ...candidate, now })
    return this.byRoot(candidate.root) as ProjectRow
  }

  /** Recently opened folders, without the worktrees' own projects (they are reached through their project). */
  recent(limit: number): ProjectRow[] {
    const rows = this.db
      .prepare('SELECT * FROM projects WHERE id NOT IN (SELECT project_id FROM worktrees) ORDER BY last_opened_at DESC LIMIT ?')
      .all(limit) as RawProjectRow[]
    return rows.map(fromRaw)
  }

  remove(id: string): boolean {
    return this.db.prepare('DELETE FROM projects WHERE id = ?').run(id).changes > 0
  }
}
