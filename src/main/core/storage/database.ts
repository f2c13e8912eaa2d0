import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { migrations } from './migrations'

export type Db = Database.Database

// better-sqlite3's N-API addon loads in Node and in Electron alike: one build, no per-runtime binding.
export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  migrate(db)
  return db
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number
}

function migrate(db: Db): void {
  const current = schemaVersion(db)
  if (current > migrations.length) {
    throw new Error(
      `database schema version ${current} is newer than this build supports (${migrations.length}); update Hotaru`,
    )
  }
  for (let version = current; version < migrations.length; version++) {
    const sql = migrations[version] as string
    db.transaction(() => {
      db.exec(sql)
      db.pragma(`user_version = ${version + 1}`)
    })()
  }
}
