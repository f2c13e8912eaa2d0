import type Database from 'better-sqlite3'

/** Distinct statement texts kept per connection; past it the cache starts over (the repos use a few dozen). */
const MAX_STATEMENTS = 256

/**
 * Makes `db.prepare(sql)` compile each statement text once per connection. better-sqlite3 compiles
 * the SQL on every `prepare` (12–24 µs here, against 2 µs to run a typical write), and the repos
 * prepare where they run: a turn stores its parts and streamed text through a handful of
 * statements, hundreds of times. A statement is only ever run to completion with the arguments of
 * its call (`run`, `get`, `all`; never `iterate`, never `bind`), so one compiled statement serves
 * every caller of its text; one that reads comes back with its result shape reset (no `pluck`,
 * `expand` or `raw` left from an earlier caller). The library's own statements (transactions,
 * pragmas) do not go through `prepare`.
 */
export function reusePreparedStatements(db: Database.Database): void {
  const compile = db.prepare.bind(db)
  const statements = new Map<string, Database.Statement>()
  const prepare = (sql: string): Database.Statement => {
    const cached = statements.get(sql)
    if (cached) {
      if (cached.reader) cached.pluck(false).expand(false).raw(false)
      return cached
    }
    const statement = compile(sql)
    if (statements.size >= MAX_STATEMENTS) statements.clear()
    statements.set(sql, statement)
    return statement
  }
  db.prepare = prepare as Database.Database['prepare']
}
