import Database from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDatabase, schemaVersion, Storage } from '../../src/main/core/storage'
import { migrations } from '../../src/main/core/storage/migrations'
import { tempDir } from '../support/temp'

describe('storage', () => {
  it('opens in WAL mode and applies every migration once', () => {
    const dir = tempDir()
    const db = openDatabase(join(dir, 'hotaru.db'))
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(schemaVersion(db)).toBe(migrations.length)
    db.close()
    const again = openDatabase(join(dir, 'hotaru.db'))
    expect(schemaVersion(again)).toBe(migrations.length)
    again.close()
  })

  it('keeps projects and settings across reopen', () => {
    const dir = tempDir()
    const first = Storage.open(dir)
    first.projects.touch({ id: 'aaaaaaaaaaaaaaaa', root: '/tmp/x', name: 'x' }, 1000)
    first.kv.set('layout', { sidebar: 240 })
    first.close()
    const second = Storage.open(dir)
    expect(second.projects.byRoot('/tmp/x')).toMatchObject({ id: 'aaaaaaaaaaaaaaaa', lastOpenedAt: 1000 })
    expect(second.kv.get('layout')).toEqual({ sidebar: 240 })
    second.close()
  })

  it('orders recent projects by last open and keeps the id of a known root', () => {
    const storage = Storage.open(tempDir())
    storage.projects.touch({ id: 'aaaaaaaaaaaaaaaa', root: '/a', name: 'a' }, 1)
    storage.projects.touch({ id: 'bbbbbbbbbbbbbbbb', root: '/b', name: 'b' }, 2)
    storage.projects.touch({ id: 'cccccccccccccccc', root: '/a', name: 'a' }, 3)
    expect(storage.projects.recent(10).map((p) => p.id)).toEqual(['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb'])
    storage.close()
  })

  it('refuses a database written by a newer version instead of corrupting it', () => {
    const file = join(tempDir(), 'hotaru.db')
    const raw = new Database(file)
    raw.pragma(`user_version = ${migrations.length + 5}`)
    raw.close()
    expect(() => openDatabase(file)).toThrow(/newer than this build supports/)
  })
})
