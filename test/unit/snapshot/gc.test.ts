import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ErrorNames } from '@shared/errors'
import { SnapshotErrorNames } from '../../../src/main/core/snapshot'
import { listFiles, read, readTree, sandbox, write, type Sandbox } from './helpers'

let box: Sandbox

beforeEach(() => {
  box = sandbox()
})

afterEach(async () => {
  await box.cleanup()
})

describe('storage', () => {
  it('counts a new store’s usage from what it writes, the same as listing it would, also after deferred compression', () => {
    for (let i = 0; i < 40; i++) write(box.root, `src/f${i}.ts`, `export const value${i} = ${i}\n`.repeat(60))
    write(box.root, 'big.bin', Buffer.alloc(2 * 1024 * 1024, 7))
    const engine = box.engine()
    engine.snapshot()
    const counted = engine.usage()
    expect(counted.blobs.count).toBe(41)
    expect(engine.usage({ exact: true })).toEqual(counted)

    while (engine.compressDeferred().remaining > 0) {
      // one pack per call
    }

    const compressed = engine.usage()
    expect(compressed.totalBytes).toBeLessThan(counted.totalBytes)
    expect(engine.usage({ exact: true })).toEqual(compressed)
  })

  it('reports usage and keeps every blob a live snapshot references', () => {
    write(box.root, 'shared.txt', 'in every snapshot\n')
    write(box.root, 'one.txt', 'only in s1 '.repeat(100))
    const engine = box.engine()
    const s1 = engine.snapshot().id
    const tree1 = readTree(box.root)
    rmSync(join(box.root, 'one.txt'))
    write(box.root, 'two.txt', 'only in s2 '.repeat(100))
    const s2 = engine.snapshot().id
    rmSync(join(box.root, 'two.txt'))
    write(box.root, 'three.txt', 'only in s3 '.repeat(100))
    const s3 = engine.snapshot().id
    const tree3 = readTree(box.root)
    const before = engine.usage({ exact: true })
    expect(before.blobs.count).toBe(4)
    expect(engine.usage()).toEqual(before) // counters kept up to date without a listing

    const result = engine.gc([s1, s3])

    expect(result).toMatchObject({ blobsRemoved: 1, blobsKept: 3 })
    expect(result.treesRemoved).toBeGreaterThan(0)
    const after = engine.usage({ exact: true })
    expect(after.totalBytes).toBe(before.totalBytes - result.bytesFreed)
    expect(engine.usage()).toEqual(after)
    expect(() => engine.manifest(s2)).toThrowError(expect.objectContaining({ name: ErrorNames.NotFound }))
    engine.restore(s1)
    expect(readTree(box.root)).toEqual(tree1)
    engine.restore(s3)
    expect(readTree(box.root)).toEqual(tree3)
  })

  it('rehashes working files whose blobs were collected, so later snapshots stay restorable', () => {
    write(box.root, 'a.txt', 'kept')
    const engine = box.engine()
    const old = engine.snapshot().id
    write(box.root, 'b.txt', 'never checkpointed before gc')
    engine.snapshot()

    engine.gc([old])
    const fresh = engine.snapshot().id
    engine.restore(old)
    expect(read(box.root, 'a.txt')).toBe('kept')
    engine.restore(fresh)
    expect(read(box.root, 'b.txt')).toBe('never checkpointed before gc')
  })

  it('sees a collection made by another engine on the same store', () => {
    write(box.root, 'a.txt', 'a')
    const first = box.engine()
    const keep = first.snapshot().id
    write(box.root, 'b.txt', 'b')
    first.snapshot()

    box.engine().gc([keep])

    const again = first.snapshot().id
    expect(first.manifest(again).get('b.txt')).toMatchObject({ kind: 'file' })
    first.restore(keep)
    first.restore(again)
    expect(read(box.root, 'b.txt')).toBe('b')
  })

  it('refuses to collect when a live id is unknown, deleting nothing', () => {
    write(box.root, 'a.txt', 'a')
    const engine = box.engine()
    const id = engine.snapshot().id
    const before = engine.usage({ exact: true })
    expect(() => engine.gc(['0'.repeat(64)])).toThrowError(expect.objectContaining({ name: ErrorNames.NotFound }))
    expect(engine.usage({ exact: true })).toEqual(before)
    expect(engine.exists(id)).toBe(true)
  })

  it('packs bulk writes and rewrites a pack that became mostly garbage', () => {
    for (let i = 0; i < 40; i++) write(box.root, `src/f${i}.ts`, `export const v${i} = ${i}\n`.repeat(20))
    const engine = box.engine()
    const s1 = engine.snapshot().id
    expect([...listFiles(join(box.store, 'blobs')).keys()].filter((f) => f.startsWith('packs/'))).toHaveLength(1)
    for (let i = 0; i < 20; i++) rmSync(join(box.root, `src/f${i}.ts`))
    const s2 = engine.snapshot().id
    const tree2 = readTree(box.root)
    const before = engine.usage({ exact: true })

    const result = engine.gc([s2])

    expect(result).toMatchObject({ blobsRemoved: 20, blobsKept: 20 })
    const packs = [...listFiles(join(box.store, 'blobs')).keys()].filter((f) => f.startsWith('packs/'))
    expect(packs).toHaveLength(1)
    expect(engine.usage({ exact: true }).blobs.count).toBe(before.blobs.count - 20)
    expect(engine.exists(s1)).toBe(false)
    write(box.root, 'src/f30.ts', 'changed')
    engine.restore(s2)
    expect(readTree(box.root)).toEqual(tree2)
    // Only the pre-restore checkpoint's own content (the edited f30.ts) is left to collect.
    expect(engine.gc([s2])).toMatchObject({ blobsRemoved: 1, blobsKept: 20 })
    expect(engine.gc([s2])).toMatchObject({ blobsRemoved: 0, treesRemoved: 0 })
  })

  it('reports a damaged object instead of restoring wrong content', () => {
    write(box.root, 'a.txt', 'precious content')
    const engine = box.engine()
    const id = engine.snapshot().id
    const blobs = join(box.store, 'blobs')
    const [loose] = [...listFiles(blobs).keys()].filter((f) => !f.startsWith('packs/'))
    if (!loose) throw new Error('expected a loose blob')
    writeFileSync(join(blobs, loose), Buffer.from([0, 1, 2, 3]))
    write(box.root, 'a.txt', 'changed')

    expect(() => engine.fileVersions('a.txt', id)).toThrowError(expect.objectContaining({ name: SnapshotErrorNames.Corrupt }))
    expect(() => engine.restore(id)).toThrowError(/rolled back/)
    expect(read(box.root, 'a.txt')).toBe('changed')
  })

  it('flags a store over its quota', () => {
    write(box.root, 'a.txt', 'x'.repeat(4000))
    const engine = box.engine({ quotaBytes: 100 })
    engine.snapshot()
    expect(engine.usage()).toMatchObject({ quotaBytes: 100, overQuota: true })
  })
})
