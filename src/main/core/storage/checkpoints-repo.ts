import type { Checkpoint } from '@shared/schema/checkpoint'
import type { Db } from './database'

interface Row {
  id: string
  project_id: string
  session_id: string | null
  message_id: string | null
  snapshot_id: string
  trigger: Checkpoint['trigger']
  created_at: number
  summary: string
  scope: string | null
  about: string | null
}

/** The `about` column: what the checkpoint is about, kept for its label. */
type About = Pick<Checkpoint, 'actions' | 'prompt'>

function aboutJson(c: Checkpoint): string | null {
  const about: About = { ...(c.actions ? { actions: c.actions } : {}), ...(c.prompt ? { prompt: c.prompt } : {}) }
  return Object.keys(about).length > 0 ? JSON.stringify(about) : null
}

const toCheckpoint = (r: Row): Checkpoint => ({
  id: r.id,
  projectId: r.project_id,
  sessionId: r.session_id,
  messageId: r.message_id,
  snapshotId: r.snapshot_id,
  trigger: r.trigger,
  createdAt: r.created_at,
  summary: JSON.parse(r.summary) as Checkpoint['summary'],
  ...(r.scope === null ? {} : { scope: JSON.parse(r.scope) as string[] }),
  ...(r.about === null ? {} : (JSON.parse(r.about) as About)),
})

export class CheckpointsRepo {
  constructor(private readonly db: Db) {}

  insert(c: Checkpoint): void {
    this.db
      .prepare(
        `INSERT INTO checkpoints (id, project_id, session_id, message_id, snapshot_id, trigger, created_at, summary, scope, about)
         VALUES (@id, @projectId, @sessionId, @messageId, @snapshotId, @trigger, @createdAt, @summary, @scope, @about)`,
      )
      .run({
        id: c.id,
        projectId: c.projectId,
        sessionId: c.sessionId,
        messageId: c.messageId,
        snapshotId: c.snapshotId,
        trigger: c.trigger,
        createdAt: c.createdAt,
        summary: JSON.stringify(c.summary),
        scope: c.scope ? JSON.stringify(c.scope) : null,
        about: aboutJson(c),
      })
  }

  get(id: string): Checkpoint | undefined {
    const row = this.db.prepare('SELECT * FROM checkpoints WHERE id = ?').get(id) as Row | undefined
    return row && toCheckpoint(row)
  }

  byPrefix(prefix: string): Checkpoint[] {
    const rows = this.db
      .prepare("SELECT * FROM checkpoints WHERE id LIKE ? ESCAPE '\\' LIMIT 2")
      .all(`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) as Row[]
    return rows.map(toCheckpoint)
  }

  /** Oldest first. */
  list(projectId: string, sessionId?: string): Checkpoint[] {
    const rows = (
      sessionId
        ? this.db.prepare('SELECT * FROM checkpoints WHERE project_id = ? AND session_id = ? ORDER BY created_at, id').all(projectId, sessionId)
        : this.db.prepare('SELECT * FROM checkpoints WHERE project_id = ? ORDER BY created_at, id').all(projectId)
    ) as Row[]
    return rows.map(toCheckpoint)
  }

  latest(projectId: string, sessionId: string | null): Checkpoint | undefined {
    const row = (
      sessionId
        ? this.db.prepare('SELECT * FROM checkpoints WHERE project_id = ? AND session_id = ? ORDER BY created_at DESC, id DESC LIMIT 1').get(projectId, sessionId)
        : this.db.prepare('SELECT * FROM checkpoints WHERE project_id = ? ORDER BY created_at DESC, id DESC LIMIT 1').get(projectId)
    ) as Row | undefined
    return row && toCheckpoint(row)
  }

  /** Removes the oldest checkpoints of a project, keeping the newest `keep`; returns how many went. */
  pruneOldest(projectId: string, keep: number): number {
    return this.db
      .prepare(
        `DELETE FROM checkpoints WHERE project_id = ? AND id NOT IN
           (SELECT id FROM checkpoints WHERE project_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)`,
      )
      .run(projectId, projectId, keep).changes
  }

  count(projectId: string): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM checkpoints WHERE project_id = ?').get(projectId) as { n: number }).n
  }

  /** Snapshot ids still referenced (for garbage collection of the store). */
  snapshotIds(projectId: string): string[] {
    return (this.db.prepare('SELECT DISTINCT snapshot_id AS id FROM checkpoints WHERE project_id = ?').all(projectId) as { id: string }[]).map(
      (r) => r.id,
    )
  }
}
