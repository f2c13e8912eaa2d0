import { isReadOnlyFallback, type Db } from './database'

/** Small JSON settings and UI state (open tabs, window bounds) by key. */
export class KvRepo {
  constructor(private readonly db: Db) {}

  get<T>(key: string): T | undefined {
    const row = this.db.prepare('SELECT value FROM kv WHERE key = ?').get(key) as { value: string } | undefined
    if (!row) return undefined
    try {
      return JSON.parse(row.value) as T
    } catch {
      // A corrupt value is treated as absent (it is overwritten on next set); say so.
      console.warn(`[kv] ignoring unreadable value for "${key}"`)
      return undefined
    }
  }

  set(key: string, value: unknown): void {
    // Read-only on a full disk (the user was told): layout and preferences are not kept until there is space.
    if (isReadOnlyFallback(this.db)) return
    this.db
      .prepare(
        `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      )
      .run(key, JSON.stringify(value), Date.now())
  }

  delete(key: string): void {
    this.db.prepare('DELETE FROM kv WHERE key = ?').run(key)
  }
}
