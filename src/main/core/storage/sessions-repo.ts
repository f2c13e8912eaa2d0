import { EffortSchema } from '@shared/schema/effort'
import type { Message, Part, Session } from '@shared/schema/session'
import type { Db } from './database'

interface SessionRow {
  id: string
  project_id: string
  parent_id: string | null
  title: string
  agent: string
  model: string
  effort: string | null
  created_at: number
  updated_at: number
}

/** A stored effort this version does not know (written by a newer one) reads as not chosen. */
function storedEffort(value: string | null): Pick<Session, 'effort'> {
  const parsed = EffortSchema.safeParse(value)
  return parsed.success ? { effort: parsed.data } : {}
}

const toSession = (r: SessionRow): Session => ({
  id: r.id,
  projectId: r.project_id,
  parentId: r.parent_id,
  title: r.title,
  agent: r.agent,
  model: r.model,
  ...storedEffort(r.effort),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

const sessionRow = (s: Session) => ({ ...s, effort: s.effort ?? null })

/** Sessions, messages and parts. Message and part bodies are stored as JSON. */
export class SessionsRepo {
  constructor(private readonly db: Db) {}

  insertSession(s: Session): void {
    this.db
      .prepare(
        `INSERT INTO sessions (id, project_id, parent_id, title, agent, model, effort, created_at, updated_at)
         VALUES (@id, @projectId, @parentId, @title, @agent, @model, @effort, @createdAt, @updatedAt)`,
      )
      .run(sessionRow(s))
  }

  updateSession(s: Session): void {
    this.db
      .prepare(
        'UPDATE sessions SET title = @title, agent = @agent, model = @model, effort = @effort, updated_at = @updatedAt WHERE id = @id',
      )
      .run(sessionRow(s))
  }

  session(id: string): Session | undefined {
    const row = this.db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined
    return row && toSession(row)
  }

  /** Newest first; `roots` leaves out subagent runs. */
  sessions(projectId: string, options: { roots?: boolean; limit?: number; search?: string } = {}): Session[] {
    const where = ['project_id = @projectId']
    if (options.roots) where.push('parent_id IS NULL')
    if (options.search) where.push("title LIKE @search ESCAPE '\\'")
    const rows = this.db
      .prepare(`SELECT * FROM sessions WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, id DESC LIMIT @limit`)
      .all({
        projectId,
        limit: options.limit ?? 1000,
        search: options.search ? `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined,
      }) as SessionRow[]
    return rows.map(toSession)
  }

  /** Looks a session up by a unique prefix of its id (for the CLI). */
  sessionsByPrefix(prefix: string): Session[] {
    const rows = this.db
      .prepare("SELECT * FROM sessions WHERE id LIKE ? ESCAPE '\\' LIMIT 2")
      .all(`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) as SessionRow[]
    return rows.map(toSession)
  }

  deleteSession(id: string): boolean {
    return this.db.prepare('DELETE FROM sessions WHERE id = ?').run(id).changes > 0
  }

  upsertMessage(m: Message): void {
    this.db
      .prepare(
        `INSERT INTO messages (id, session_id, created_at, data) VALUES (@id, @sessionId, @createdAt, @data)
         ON CONFLICT(id) DO UPDATE SET data = excluded.data`,
      )
      .run({ id: m.id, sessionId: m.sessionId, createdAt: m.createdAt, data: JSON.stringify(m) })
  }

  messages(sessionId: string): Message[] {
    const rows = this.db
      .prepare('SELECT data FROM messages WHERE session_id = ? ORDER BY created_at, id')
      .all(sessionId) as { data: string }[]
    return rows.map((r) => JSON.parse(r.data) as Message)
  }

  /**
   * Stores a part: a new one goes after the last part of its message (its position is found by the same
   * statement, one round trip to SQLite per part instead of two), a stored one keeps its place and gets
   * this body.
   */
  upsertPart(part: Part): void {
    this.db
      .prepare(
        `INSERT INTO parts (id, message_id, session_id, position, data)
         VALUES (@id, @messageId, @sessionId, (SELECT COALESCE(MAX(position) + 1, 0) FROM parts WHERE message_id = @messageId), @data)
         ON CONFLICT(id) DO UPDATE SET data = excluded.data`,
      )
      .run({ id: part.id, messageId: part.messageId, sessionId: part.sessionId, data: JSON.stringify(part) })
  }

  /** Rewrites a stored part's body; false when the part is not stored. */
  updatePartData(part: Part): boolean {
    return this.db.prepare('UPDATE parts SET data = ? WHERE id = ?').run(JSON.stringify(part), part.id).changes > 0
  }

  deletePart(id: string): void {
    this.db.prepare('DELETE FROM parts WHERE id = ?').run(id)
  }

  parts(sessionId: string): Part[] {
    const rows = this.db
      .prepare('SELECT data FROM parts WHERE session_id = ? ORDER BY message_id, position')
      .all(sessionId) as { data: string }[]
    return rows.map((r) => JSON.parse(r.data) as Part)
  }

  /** Keeps an image's bytes; they go with their message (or session) when it is deleted. */
  insertImage(image: { id: string; sessionId: string; messageId: string; mediaType: string; data: Buffer }): void {
    this.db
      .prepare('INSERT INTO images (id, session_id, message_id, media_type, data) VALUES (@id, @sessionId, @messageId, @mediaType, @data)')
      .run(image)
  }

  image(id: string): { sessionId: string; mediaType: string; data: Buffer } | undefined {
    const row = this.db.prepare('SELECT session_id, media_type, data FROM images WHERE id = ?').get(id) as
      | { session_id: string; media_type: string; data: Buffer }
      | undefined
    return row && { sessionId: row.session_id, mediaType: row.media_type, data: row.data }
  }

  /** Removes every message from `messageId` on (inclusive), e.g. for a conversation restore. */
  deleteMessagesFrom(sessionId: string, messageId: string): number {
    return this.db.prepare('DELETE FROM messages WHERE session_id = ? AND id >= ?').run(sessionId, messageId).changes
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)()
  }
}
