import { statSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, WalCheckpoints, type Db } from '../../../src/main/core/storage'
import { testServices } from '../../support/services'
import { tempDir } from '../../support/temp'
import { until } from '../../support/until'

const autocheckpoint = (db: Db): number => db.pragma('wal_autocheckpoint', { simple: true }) as number

const opened: Array<{ dispose?: () => Promise<void>; close?: () => void }> = []
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) {
    await item.dispose?.()
    item.close?.()
  }
})

describe('WAL checkpoints', () => {
  it('in a host with a UI are taken by a thread of their own once the log is large, never by a commit on the event loop', async () => {
    const services = testServices({ walCheckpoints: { thresholdBytes: 256 * 1024, everyMs: 20 } })
    const { db } = services.storage
    expect(services.walCheckpoints?.running).toBe(true)
    expect(autocheckpoint(db)).toBe(0)
    const before = statSync(db.name).size
    // About 1 MiB of transcript-sized rows: below SQLite's own threshold (4 MiB), above the thread's.
    const row = 'x'.repeat(4096)
    for (let i = 0; i < 256; i++) services.storage.kv.set(`bulk.${i}`, row)
    await until(() => statSync(db.name).size > before + 512 * 1024, 'the rows reach the database file')
    expect(services.storage.kv.get('bulk.255')).toBe(row)
  })

  it('in a one-shot CLI command stay SQLite\'s own', () => {
    const services = testServices({ transport: 'cli' })
    expect(services.walCheckpoints).toBeUndefined()
    expect(autocheckpoint(services.storage.db)).toBe(1000)
  })

  it('go back to SQLite\'s own when the thread fails, so the log never grows without bound', async () => {
    const file = join(tempDir(), 'hotaru.db')
    const db = openDatabase(file)
    opened.push({ close: () => db.close() })
    // The thread opens the file by its name: gone, it cannot.
    unlinkSync(file)
    const checkpoints = new WalCheckpoints(db, { everyMs: 20 })
    opened.push(checkpoints)
    await until(() => !checkpoints.running, 'the thread failed')
    expect(autocheckpoint(db)).toBe(1000)
  })

  it('end with the services, and closing the database copies back what is left', async () => {
    const services = testServices({ walCheckpoints: { thresholdBytes: 1024 * 1024 * 1024, everyMs: 20 } })
    const report = await services.walCheckpoints?.checkpointNow()
    expect(report?.type).toBe('checkpointed')
    services.storage.kv.set('last', 'value')
    const { name } = services.storage.db
    await services.dispose()
    expect(() => statSync(`${name}-wal`)).toThrow(/ENOENT/)
  })
})
