import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ObjectStore, sha256 } from '../../../src/main/core/snapshot/object-store'
import { readKnownSize } from '../../../src/main/core/snapshot/scanner'
import { tempDir } from '../../support/temp'

describe('reading files for a snapshot', () => {
  it('reads a file whole when it grew or shrank since its size was taken', () => {
    const file = join(tempDir(), 'f.txt')
    writeFileSync(file, 'grown well past the size its stat said')
    expect(readKnownSize(file, 5).toString()).toBe('grown well past the size its stat said')
    writeFileSync(file, 'short')
    expect(readKnownSize(file, 4096).toString()).toBe('short')
    writeFileSync(file, '')
    expect(readKnownSize(file, 0).length).toBe(0)
  })
})

describe('object store batches', () => {
  it('find loose objects stored before the batch, by this store or another one on the same folder, and do not store them twice', () => {
    const dir = tempDir()
    const other = new ObjectStore(dir)
    const early = Buffer.from('written loose by another process')
    other.put(sha256(early), early)
    const store = new ObjectStore(dir)
    const mine = Buffer.from('written loose by this one')
    store.put(sha256(mine), mine)

    store.beginBatch()
    expect(store.has(sha256(early))).toBe(true)
    expect(store.has(sha256(mine))).toBe(true)
    expect(store.put(sha256(early), early)).toBe(0)
    const fresh = Array.from({ length: 40 }, (_, i) => Buffer.from(`new object ${i}`))
    for (const data of fresh) expect(store.put(sha256(data), data)).toBeGreaterThan(0)
    expect(store.has(sha256(fresh[0]!))).toBe(true)
    store.flush()

    const reopened = new ObjectStore(dir)
    for (const data of [early, mine, ...fresh]) expect(reopened.get(sha256(data))).toEqual(data)
    // The batch became one pack; the two loose objects stayed loose, each once.
    expect(reopened.list().filter((o) => o.hash === sha256(early))).toHaveLength(1)
    expect(readdirSync(join(dir, 'packs')).length).toBeGreaterThan(0)
  })
})
