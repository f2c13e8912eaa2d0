import Database from 'better-sqlite3'
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
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

  it.skipIf(process.platform === 'win32')('creates the data dir 0700 and hotaru.db with its WAL and SHM 0600', () => {
    const dataDir = join(tempDir(), 'data')
    const storage = Storage.open(dataDir)
    storage.kv.set('k', 1)
    const mode = (path: string): number => statSync(path).mode & 0o777
    expect(mode(dataDir)).toBe(0o700)
    for (const name of ['hotaru.db', 'hotaru.db-wal', 'hotaru.db-shm']) expect(mode(join(dataDir, name))).toBe(0o600)
    storage.close()
  })

  it.skipIf(process.platform === 'win32')('tightens the modes an older install left open', () => {
    const dataDir = join(tempDir(), 'data')
    mkdirSync(dataDir, { mode: 0o755 })
    chmodSync(dataDir, 0o755)
    writeFileSync(join(dataDir, 'hotaru.db'), '')
    chmodSync(join(dataDir, 'hotaru.db'), 0o644)
    const storage = Storage.open(dataDir)
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    expect(statSync(join(dataDir, 'hotaru.db')).mode & 0o777).toBe(0o600)
    storage.close()
  })

  it('keeps trust decisions per folder', () => {
    const dir = tempDir()
    const first = Storage.open(dir)
    first.trust.set('/home/u/src', true, 5)
    first.trust.set('/home/u/src/evil', false, 6)
    first.close()
    const second = Storage.open(dir)
    expect(second.trust.list()).toEqual([
      { path: '/home/u/src', trusted: true, decidedAt: 5 },
      { path: '/home/u/src/evil', trusted: false, decidedAt: 6 },
    ])
    expect(second.trust.delete('/home/u/src')).toBe(true)
    expect(second.trust.delete('/home/u/src')).toBe(false)
    second.close()
  })
})
