import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SnapshotErrorNames } from '../../../src/main/core/snapshot'
import { until } from '../../support/until'
import { sandbox, settle, write, type Sandbox } from './helpers'

let box: Sandbox

beforeEach(() => {
  box = sandbox()
})

afterEach(async () => {
  await box.cleanup()
})

describe('snapshot engine in a worker thread', () => {
  it('compresses what a bulk snapshot stored raw once it has been idle, and reads it the same after', async () => {
    for (let i = 0; i < 40; i++) write(box.root, `src/f${i}.ts`, `export const value${i} = ${i}\n`.repeat(60))
    const engine = box.client()
    const first = await engine.snapshot()
    const packDir = join(box.store, 'blobs', 'packs')
    const rawPacks = (): string[] => (existsSync(packDir) ? readdirSync(packDir).filter((name) => name.endsWith('.raw.pack')) : [])
    expect(rawPacks()).toHaveLength(1)

    await until(() => rawPacks().length === 0, 'the raw pack is compressed')

    const versions = await engine.fileVersions('src/f5.ts', first.id, first.id)
    expect(versions.old?.text).toBe('export const value5 = 5\n'.repeat(60))
  })

  it('snapshots, diffs and restores through the worker with the engine’s results', async () => {
    write(box.root, 'a.txt', 'one\n')
    write(box.root, 'src/b.ts', 'export const b = 1\n')
    const engine = box.client()
    const first = await engine.snapshot()
    expect(first.stats.full).toBe(true)
    writeFileSync(join(box.root, 'a.txt'), 'two\n')
    const second = await engine.snapshot()
    expect(second.id).not.toBe(first.id)
    expect(await engine.diff(first.id, second.id)).toEqual([
      expect.objectContaining({ path: 'a.txt', status: 'modified', additions: 1, deletions: 1 }),
    ])
    const manifest = await engine.manifest(first.id)
    expect([...manifest.keys()].sort()).toEqual(['a.txt', 'src/b.ts'])
    const result = await engine.restore(first.id)
    expect(result.written).toBe(1)
    expect(readFileSync(join(box.root, 'a.txt'), 'utf8')).toBe('one\n')
  })

  it('visits only the paths marked as written when told to trust them, without a change feed', async () => {
    for (let i = 0; i < 50; i++) write(box.root, `src/f${i}.ts`, `export const v = ${i}\n`)
    const engine = box.client()
    await engine.snapshot()
    await settle()
    await engine.snapshot() // settles the racy files of the first snapshot
    writeFileSync(join(box.root, 'src/f7.ts'), 'export const v = "edited"\n')
    await engine.markDirty([join(box.root, 'src/f7.ts'), '/somewhere/else/outside.txt'])
    const next = await engine.snapshot({ trustMarks: true })
    expect(next.stats.full).toBe(false)
    expect(next.stats.filesHashed).toBe(1)
    expect(next.id).toBe((await engine.snapshot({ full: true })).id)
  })

  it('walks the whole tree after an unlisted change when no feed runs', async () => {
    write(box.root, 'a.txt', 'one\n')
    const engine = box.client()
    await engine.snapshot()
    write(box.root, 'made-by-shell.txt', 'x\n')
    await engine.settleAfterUnlistedChange()
    const next = await engine.snapshot({ trustMarks: true })
    expect(next.stats.full).toBe(true)
    expect(next.changed).toBe(true)
  })

  it('runs the change feed in the worker: a shell-made change is seen without a full walk', async () => {
    for (let i = 0; i < 50; i++) write(box.root, `src/f${i}.ts`, `export const v = ${i}\n`)
    const engine = box.client()
    await engine.watch()
    expect((await engine.changeFeed()).live).toBe(true)
    await engine.snapshot()
    await settle()
    await engine.snapshot()
    write(box.root, 'src/new.ts', 'export const n = 1\n')
    await engine.settleAfterUnlistedChange()
    const next = await engine.snapshot()
    expect(next.stats.full).toBe(false)
    expect(next.changed).toBe(true)
    expect((await engine.diff((await engine.snapshot({ full: true })).id, next.id))).toEqual([])
  })

  it('keeps error names across the thread boundary', async () => {
    write(box.root, 'a.txt', 'one\n')
    const engine = box.client()
    const first = await engine.snapshot()
    writeFileSync(join(box.root, 'a.txt'), 'two\n')
    const preview = await engine.preview(first.id)
    writeFileSync(join(box.root, 'a.txt'), 'three\n')
    await expect(engine.restore(first.id, { expectCurrentId: preview.currentId })).rejects.toMatchObject({
      name: SnapshotErrorNames.Stale,
    })
    await expect(engine.diff('0'.repeat(64))).rejects.toMatchObject({ name: 'NotFound' })
  })
})
