import { chmodSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CopyIndex } from '../../../src/main/core/snapshot/copy-index'
import { tempDir } from '../../support/temp'
import { type Sandbox, sandbox } from './helpers'

/** Long enough for every file written so far to leave the racy window (200 ms). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

describe('comparing a copy of the project with its base', () => {
  let box: Sandbox
  let copy: string
  let index: string

  beforeEach(() => {
    box = sandbox()
    const dir = tempDir()
    copy = join(dir, 'copy')
    index = join(dir, 'index')
    mkdirSync(join(box.root, 'src'))
    writeFileSync(join(box.root, 'src/a.ts'), 'a\n')
    writeFileSync(join(box.root, 'src/b.ts'), 'b\n')
    writeFileSync(join(box.root, 'run.sh'), 'echo\n')
    writeFileSync(join(box.root, '.gitignore'), 'out/\n')
    symlinkSync('src/a.ts', join(box.root, 'link'))
    mkdirSync(copy)
  })
  afterEach(() => box.cleanup())

  it('reports adds, edits, deletes, exec bits and links, and nothing the ignore rules leave out', async () => {
    const engine = box.engine()
    const { id } = engine.snapshot()
    await engine.materialize(id, copy, index)
    expect(engine.compareDir(id, copy, index)).toEqual([])

    writeFileSync(join(copy, 'src/a.ts'), 'changed\n')
    unlinkSync(join(copy, 'src/b.ts'))
    writeFileSync(join(copy, 'src/new.ts'), 'new\n')
    chmodSync(join(copy, 'run.sh'), 0o755)
    unlinkSync(join(copy, 'link'))
    symlinkSync('src/new.ts', join(copy, 'link'))
    mkdirSync(join(copy, 'out'))
    writeFileSync(join(copy, 'out/build.js'), 'ignored\n')

    expect(engine.compareDir(id, copy, index)).toEqual([
      { path: 'link', status: 'modified' },
      { path: 'run.sh', status: 'modified' },
      { path: 'src/a.ts', status: 'modified' },
      { path: 'src/b.ts', status: 'deleted' },
      { path: 'src/new.ts', status: 'added' },
    ])
    // Put back as it was: no change left, whatever the stat signatures say.
    writeFileSync(join(copy, 'src/a.ts'), 'a\n')
    writeFileSync(join(copy, 'src/b.ts'), 'b\n')
    rmSync(join(copy, 'src/new.ts'))
    chmodSync(join(copy, 'run.sh'), 0o644)
    unlinkSync(join(copy, 'link'))
    symlinkSync('src/a.ts', join(copy, 'link'))
    expect(engine.compareDir(id, copy, index)).toEqual([])
  })

  it('sees a file rewritten at the same size right after a comparison, in this engine and in the next', async () => {
    const engine = box.engine()
    const { id } = engine.snapshot()
    await engine.materialize(id, copy, index)
    // Rewritten within the same timestamp tick, size, mtime and ctime can all stay the same: only the racy rule tells.
    for (const content of ['x\n', 'y\n', 'a\n', 'z\n']) {
      writeFileSync(join(copy, 'src/a.ts'), content)
      const expected = content === 'a\n' ? [] : [{ path: 'src/a.ts', status: 'modified' }]
      expect(engine.compareDir(id, copy, index)).toEqual(expected)
    }
    writeFileSync(join(copy, 'src/b.ts'), 'q\n')
    expect(engine.compareDir(id, copy, index)).toHaveLength(2)
    writeFileSync(join(copy, 'src/b.ts'), 'b\n')
    // Another process loads the saved index: what was saved within the racy window is read again.
    const next = box.engine()
    expect(next.compareDir(id, copy, index)).toEqual([{ path: 'src/a.ts', status: 'modified' }])
  })

  it('reads only files whose signature changed once the copy has settled, and saves nothing when nothing is new', async () => {
    const engine = box.engine()
    const { id } = engine.snapshot()
    const base = engine.manifest(id)
    await engine.materialize(id, copy, index)
    await settle()
    const loaded = CopyIndex.load(copy, index, 1024 * 1024, [])
    // Saved right after the files were written, within the racy window: each is read once more, then trusted.
    expect(loaded.changes(base).stats.filesHashed).toBe(4)
    expect(loaded.changes(base).stats.filesHashed).toBe(0)
    writeFileSync(join(copy, 'src/a.ts'), 'edited\n')
    const after = loaded.changes(base)
    expect(after.changes).toEqual([{ path: 'src/a.ts', status: 'modified' }])
    expect(after.stats.filesHashed).toBe(1)
    await settle()
    expect(loaded.changes(base).stats.filesHashed).toBe(1) // the racy one, read once more
    expect(loaded.changes(base).stats.filesHashed).toBe(0)
  })

  it('settles a copy just written once, while idle: neither this engine nor the next reads its files again', async () => {
    const engine = box.engine()
    const { id } = engine.snapshot()
    const base = engine.manifest(id)
    await engine.materialize(id, copy, index)
    await settle()
    expect(engine.settleCopy()).toBe(true)
    expect(engine.settleCopy()).toBe(false)
    expect(CopyIndex.load(copy, index, 1024 * 1024, []).changes(base).stats).toMatchObject({ filesHashed: 0 })
    writeFileSync(join(copy, 'src/a.ts'), 'edited after settling\n')
    expect(engine.compareDir(id, copy, index)).toEqual([{ path: 'src/a.ts', status: 'modified' }])
    expect(CopyIndex.load(copy, index, 1024 * 1024, []).changes(base).changes).toEqual([{ path: 'src/a.ts', status: 'modified' }])
  })

  it('trusts the folder listings it wrote only until a folder or its .gitignore changes', async () => {
    const engine = box.engine()
    const { id } = engine.snapshot()
    await engine.materialize(id, copy, index)
    await settle()
    mkdirSync(join(copy, 'out'))
    writeFileSync(join(copy, 'out/build.js'), 'ignored\n')
    expect(engine.compareDir(id, copy, index)).toEqual([])
    await settle()
    // Edited in place: the folder's own stat stays as it was.
    writeFileSync(join(copy, '.gitignore'), 'nothing\n')
    writeFileSync(join(copy, 'src/a.ts'), 'edited in a listed folder\n')
    expect(engine.compareDir(id, copy, index)).toEqual([
      { path: '.gitignore', status: 'modified' },
      { path: 'out/build.js', status: 'added' },
      { path: 'src/a.ts', status: 'modified' },
    ])
  })
})
