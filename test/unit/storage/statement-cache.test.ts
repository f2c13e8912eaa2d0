import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/main/core/storage'
import { tempDir } from '../../support/temp'

describe('prepared statements', () => {
  it('compiles each statement text once per connection and runs it with each caller\'s arguments', () => {
    const db = openDatabase(join(tempDir(), 'hotaru.db'))
    try {
      db.exec('CREATE TABLE notes (key TEXT PRIMARY KEY, value TEXT)')
      const sql = 'SELECT value FROM notes WHERE key = ?'
      db.prepare('INSERT INTO notes (key, value) VALUES (?, ?)').run('a', '"1"')
      db.prepare('INSERT INTO notes (key, value) VALUES (?, ?)').run('b', '"2"')
      expect(db.prepare(sql)).toBe(db.prepare(sql))
      expect(db.prepare(sql).get('a')).toEqual({ value: '"1"' })
      expect(db.prepare(sql).get('b')).toEqual({ value: '"2"' })
    } finally {
      db.close()
    }
  })

  it('hands a reading statement back without the result shape an earlier caller set', () => {
    const db = openDatabase(join(tempDir(), 'hotaru.db'))
    try {
      db.exec('CREATE TABLE notes (key TEXT PRIMARY KEY, value TEXT)')
      db.prepare('INSERT INTO notes (key, value) VALUES (?, ?)').run('a', '"1"')
      const sql = 'SELECT key, value FROM notes ORDER BY key'
      expect(db.prepare(sql).pluck().all()).toEqual(['a'])
      expect(db.prepare(sql).all()).toEqual([{ key: 'a', value: '"1"' }])
      expect(db.prepare(sql).raw().all()).toEqual([['a', '"1"']])
      expect(db.prepare(sql).all()).toEqual([{ key: 'a', value: '"1"' }])
    } finally {
      db.close()
    }
  })

  it('still answers after the schema changed under a compiled statement', () => {
    const db = openDatabase(join(tempDir(), 'hotaru.db'))
    try {
      db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)')
      db.prepare('INSERT INTO notes (body) VALUES (?)').run('first')
      expect(db.prepare('SELECT * FROM notes').all()).toEqual([{ id: 1, body: 'first' }])
      db.exec("ALTER TABLE notes ADD COLUMN tag TEXT DEFAULT 'x'")
      expect(db.prepare('SELECT * FROM notes').all()).toEqual([{ id: 1, body: 'first', tag: 'x' }])
    } finally {
      db.close()
    }
  })
})
