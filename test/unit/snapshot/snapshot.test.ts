import { existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SnapshotErrorNames } from '../../../src/main/core/snapshot'
import { link, listFiles, sandbox, settle, write, type Sandbox } from './helpers'

let box: Sandbox

beforeEach(() => {
  box = sandbox()
})

afterEach(async () => {
  await box.cleanup()
})

describe('SnapshotEngine.snapshot', () => {
  it('records files, exec bits and links, minus ignored paths and .git', () => {
    write(box.root, 'src/a.ts', 'export const a = 1\n')
    write(box.root, 'bin/run.sh', '#!/bin/sh\necho hi\n', true)
    link(box.root, 'latest', 'src/a.ts')
    write(box.root, '.gitignore', '*.log\n/dist/\n')
    write(box.root, 'debug.log', 'noise')
    write(box.root, 'dist/out.js', 'built')
    write(box.root, 'node_modules/x/index.js', 'dep')
    write(box.root, '.git/HEAD', 'ref: refs/heads/main\n')
    const engine = box.engine()

    const result = engine.snapshot()
    const manifest = engine.manifest(result.id)

    expect([...manifest.keys()].sort()).toEqual(['.gitignore', 'bin/run.sh', 'latest', 'src/a.ts'])
    expect(manifest.get('bin/run.sh')).toMatchObject({ kind: 'file', exec: true, size: 18 })
    expect(manifest.get('src/a.ts')).toMatchObject({ kind: 'file', exec: false })
    expect(manifest.get('latest')).toEqual({ kind: 'symlink', target: 'src/a.ts', size: 8 })
    expect(result.stats.full).toBe(true)
  })

  it('gives equal trees equal ids and writes nothing when nothing changed', async () => {
    write(box.root, 'a.txt', 'one\n')
    write(box.root, 'dir/b.txt', 'two\n')
    const engine = box.engine()
    const first = engine.snapshot()
    await settle()
    const before = listFiles(box.store)

    const again = engine.snapshot()

    expect(again.id).toBe(first.id)
    expect(again.changed).toBe(false)
    expect(again.stats).toMatchObject({ blobsWritten: 0, treesWritten: 0, bytesWritten: 0 })
    expect(listFiles(box.store)).toEqual(before)
    // The first snapshot's files were just written, so they were rehashed once more (racy-clean rule); now they are settled.
    expect(engine.snapshot().stats).toMatchObject({ filesHashed: 0, blobsWritten: 0, treesWritten: 0 })
  })

  it('deduplicates identical content into one blob', () => {
    write(box.root, 'a.txt', 'same content\n')
    write(box.root, 'b/c.txt', 'same content\n')
    const result = box.engine().snapshot()
    expect(result.stats.blobsWritten).toBe(1)
  })

  it('lists files over the size cap as untracked instead of dropping them', () => {
    write(box.root, 'small.txt', 'ok')
    write(box.root, 'big.bin', Buffer.alloc(5000, 1))
    const engine = box.engine({ maxFileBytes: 1000 })

    const result = engine.snapshot()

    expect(result.untracked).toEqual([{ path: 'big.bin', size: 5000, reason: 'too-large' }])
    expect(engine.manifest(result.id).get('big.bin')).toEqual({ kind: 'untracked', reason: 'too-large', size: 5000 })
    expect(result.stats.filesHashed).toBe(1)
  })

  it('keeps the stat index across engines so unchanged files are not rehashed', async () => {
    write(box.root, 'a.txt', 'a')
    write(box.root, 'b.txt', 'b')
    // Outside the racy window of the index's save: trusted by the next engine.
    await settle()
    const first = box.engine().snapshot()
    write(box.root, 'b.txt', 'bb')

    const result = box.engine().snapshot()

    expect(result.id).not.toBe(first.id)
    expect(result.stats.filesHashed).toBe(1)
  })

  it('rereads in a new engine a file saved within the racy window, so a same-size rewrite in the same tick is seen', () => {
    write(box.root, 'a.txt', 'a')
    const first = box.engine().snapshot()
    // Rewritten at once at the same size: its signature may well be the same as the index says.
    write(box.root, 'a.txt', 'b')
    const next = box.engine().snapshot()
    expect(next.stats.filesHashed).toBe(1)
    expect(next.id).not.toBe(first.id)
  })

  it('sees deletions, type changes and exec bit flips', async () => {
    write(box.root, 'x/y.txt', 'y')
    write(box.root, 'tool', 'echo', false)
    const engine = box.engine()
    engine.snapshot()
    await settle()
    rmSync(join(box.root, 'x'), { recursive: true })
    write(box.root, 'x', '', false) // the directory is gone; now a file
    write(box.root, 'tool', 'echo', true)

    const manifest = engine.manifest(engine.snapshot().id)

    expect([...manifest.keys()].sort()).toEqual(['tool', 'x'])
    expect(manifest.get('tool')).toMatchObject({ exec: true })
  })

  it('applies nested .gitignore files and notices when they change', async () => {
    write(box.root, 'pkg/.gitignore', 'gen/\n')
    write(box.root, 'pkg/gen/out.js', 'generated')
    write(box.root, 'pkg/src.js', 'source')
    const engine = box.engine()
    expect([...engine.manifest(engine.snapshot().id).keys()].sort()).toEqual(['pkg/.gitignore', 'pkg/src.js'])
    await settle()

    writeFileSync(join(box.root, 'pkg/.gitignore'), '# nothing ignored\n')

    expect([...engine.manifest(engine.snapshot().id).keys()].sort()).toEqual([
      'pkg/.gitignore',
      'pkg/gen/out.js',
      'pkg/src.js',
    ])
  })

  it('reuses directory listings while directories are unchanged, and notices what changes them', async () => {
    write(box.root, '.gitignore', 'gen/\n*.tmp\n')
    write(box.root, 'src/a.ts', 'a')
    write(box.root, 'src/lib/b.ts', 'b')
    write(box.root, 'gen/out.js', 'generated')
    write(box.root, 'src/scratch.tmp', 'scratch')
    const engine = box.engine()
    engine.snapshot()
    await settle()
    engine.snapshot()
    const cached = engine.snapshot()
    expect(cached.stats).toMatchObject({ full: true, dirsRead: 0 })

    // An in-place .gitignore edit changes no directory: the rules must be re-read anyway.
    writeFileSync(join(box.root, '.gitignore'), 'gen/\n')
    let manifest = engine.manifest(engine.snapshot().id)
    expect(manifest.has('src/scratch.tmp')).toBe(true)

    await settle()
    engine.snapshot()
    write(box.root, 'src/lib/c.ts', 'new file in a cached directory')
    rmSync(join(box.root, 'src/a.ts'))
    manifest = engine.manifest(engine.snapshot().id)
    expect([...manifest.keys()].sort()).toEqual(['.gitignore', 'src/lib/b.ts', 'src/lib/c.ts', 'src/scratch.tmp'])
  })

  it('follows a project root that is itself a symlink', () => {
    write(box.root, 'a.txt', 'a')
    const linkedRoot = join(box.store, '..', 'linked-project')
    symlinkSync(box.root, linkedRoot)
    const engine = box.engine({ root: linkedRoot })
    expect([...engine.manifest(engine.snapshot().id).keys()]).toEqual(['a.txt'])
  })

  it('refuses a store locked by another live process and takes over a dead one', () => {
    write(box.root, 'a.txt', 'a')
    const engine = box.engine()
    engine.snapshot()
    const lock = join(box.store, 'lock')
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname() }))
    expect(() => engine.snapshot()).toThrowError(expect.objectContaining({ name: SnapshotErrorNames.Busy }))
    writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname() }))
    expect(engine.snapshot().changed).toBe(false)
    expect(existsSync(lock)).toBe(false)
  })

  it('never snapshots its own store when it lives inside the project', () => {
    write(box.root, 'a.txt', 'a')
    const engine = box.engine({ storeDir: join(box.root, '.hotaru-store') })
    const first = engine.snapshot()
    const second = engine.snapshot()
    expect([...engine.manifest(second.id).keys()]).toEqual(['a.txt'])
    expect(second.id).toBe(first.id)
  })

  it('takes a full walk only when asked once the feed-less engine knows the tree', () => {
    write(box.root, 'a.txt', 'a')
    const engine = box.engine()
    engine.snapshot()
    engine.markDirty(['a.txt'])
    // Without a live change feed every snapshot walks, so marks never make it miss a change.
    expect(engine.snapshot().stats.full).toBe(true)
  })
})
