import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { image, sandbox, write, type Sandbox } from './helpers'

let box: Sandbox

beforeEach(() => {
  box = sandbox()
})

afterEach(async () => {
  await box.cleanup()
})


describe('SnapshotEngine.withPreImages', () => {
  it('puts written paths back as they were, leaves the rest as walked, and reads them again next time', () => {
    write(box.root, 'a.txt', 'one\n')
    write(box.root, 'src/keep.ts', 'same\n')
    write(box.root, 'old.txt', 'was here\n')
    write(box.root, '.gitignore', '*.log\n')
    const engine = box.engine()
    // The walk saw the tree after a tool had already changed it: a.txt edited, new.txt created, old.txt deleted.
    write(box.root, 'a.txt', 'two\n')
    write(box.root, 'new.txt', 'fresh\n')
    rmSync(join(box.root, 'old.txt'))
    const walked = engine.snapshot()
    const derived = engine.withPreImages([
      image(join(box.root, 'a.txt'), 'one\n'),
      { path: join(box.root, 'new.txt'), content: null },
      image('old.txt', 'was here\n', true),
      // Ignored by the project: a snapshot never holds it.
      image('debug.log', 'noise\n'),
    ])
    expect(derived.id).not.toBe(walked.id)
    const manifest = engine.manifest(derived.id)
    expect([...manifest.keys()].sort()).toEqual(['.gitignore', 'a.txt', 'old.txt', 'src/keep.ts'])
    expect(manifest.get('old.txt')).toMatchObject({ kind: 'file', exec: true, size: 9 })
    expect(engine.fileVersions('a.txt', derived.id).old?.text).toBe('one\n')
    // The store's view of the disk is unchanged: the next incremental snapshot is the disk as it is.
    const next = engine.snapshot({ trustMarks: true })
    expect(next.id).toBe(walked.id)
    expect(readFileSync(join(box.root, 'a.txt'), 'utf8')).toBe('two\n')
  })

  it('restores a derived snapshot to the pre-write content of every file', () => {
    write(box.root, 'a.txt', 'one\n')
    write(box.root, 'b/c.txt', 'deep\n')
    const engine = box.engine()
    write(box.root, 'a.txt', 'two\n')
    engine.snapshot()
    const derived = engine.withPreImages([image('a.txt', 'one\n')])
    engine.restore(derived.id, { overwriteConflicts: true })
    expect(readFileSync(join(box.root, 'a.txt'), 'utf8')).toBe('one\n')
    expect(readFileSync(join(box.root, 'b/c.txt'), 'utf8')).toBe('deep\n')
  })
})
