import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { migrations } from '../../../src/main/core/storage/migrations'
import { openDatabase, schemaVersion } from '../../../src/main/core/storage/database'
import { tempDir } from '../../support/temp'

const DATABASE = join(import.meta.dirname, '../../../src/main/core/storage/database.ts')
/** The module hooks the benchmarks use: core modules import `@shared/…`. */
const APP_MODULES = join(import.meta.dirname, '../../../bench/support/app-modules.ts')

/** Opens `file` in a separate Node process, after waiting until `startAt` so all of them start together. */
function openInProcess(file: string, startAt: number): Promise<{ code: number | null; stderr: string }> {
  const script = `
    await import(${JSON.stringify(APP_MODULES)})
    const { openDatabase } = await import(${JSON.stringify(DATABASE)})
    while (Date.now() < ${startAt}) {}
    openDatabase(${JSON.stringify(file)}).close()
  `
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, stderr }))
  })
}

describe('a new database opened by several processes at once', { timeout: 60_000 }, () => {
  it('is migrated once: every process opens it, none finds its tables already made', async () => {
    const file = join(tempDir('hotaru-db-race-'), 'hotaru.db')
    const startAt = Date.now() + 2_000
    const results = await Promise.all(Array.from({ length: 4 }, () => openInProcess(file, startAt)))
    for (const result of results) expect(result.code, result.stderr).toBe(0)
    const db = openDatabase(file)
    expect(schemaVersion(db)).toBe(migrations.length)
    db.close()
  })
})
