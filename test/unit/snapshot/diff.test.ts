import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { countLineChanges, isBinary } from '../../../src/main/core/snapshot'
import { link, sandbox, write, type Sandbox } from './helpers'

let box: Sandbox

beforeEach(() => {
  box = sandbox()
})

afterEach(async () => {
  await box.cleanup()
})

describe('diff', () => {
  it('lists added, modified and deleted paths with line counts and binary flags', () => {
    write(box.root, 'src/edit.ts', 'a\nb\nc\nd\n')
    write(box.root, 'src/gone.ts', 'x\ny\n')
    write(box.root, 'img.png', Buffer.from([137, 80, 78, 71, 0, 1, 2]))
    write(box.root, 'run.sh', 'echo\n')
    write(box.root, 'untouched/deep/file.txt', 'same')
    const engine = box.engine()
    const from = engine.snapshot().id
    write(box.root, 'src/edit.ts', 'a\nB\nc\nd\ne\n')
    rmSync(join(box.root, 'src/gone.ts'))
    write(box.root, 'src/new.ts', '1\n2\n3\n')
    write(box.root, 'img.png', Buffer.from([137, 80, 78, 71, 0, 9]))
    write(box.root, 'run.sh', 'echo\n', true)
    link(box.root, 'latest', 'src/new.ts')
    const to = engine.snapshot().id

    expect(engine.diff(from, to)).toEqual([
      { path: 'img.png', status: 'modified', kind: 'file', binary: true },
      { path: 'latest', status: 'added', kind: 'symlink', additions: 1, deletions: 0 },
      { path: 'run.sh', status: 'modified', kind: 'file', modeOnly: true, additions: 0, deletions: 0 },
      { path: 'src/edit.ts', status: 'modified', kind: 'file', additions: 2, deletions: 1 },
      { path: 'src/gone.ts', status: 'deleted', kind: 'file', additions: 0, deletions: 2 },
      { path: 'src/new.ts', status: 'added', kind: 'file', additions: 3, deletions: 0 },
    ])
    expect(engine.diff(from, from)).toEqual([])
  })

  it('diffs a snapshot against the working tree', () => {
    write(box.root, 'a.txt', 'one\n')
    const engine = box.engine()
    const from = engine.snapshot().id
    write(box.root, 'a.txt', 'one\ntwo\n')

    expect(engine.diff(from)).toEqual([{ path: 'a.txt', status: 'modified', kind: 'file', additions: 1, deletions: 0 }])
  })

  it('reports a file that became a directory as a deletion plus additions', () => {
    write(box.root, 'x', 'file')
    const engine = box.engine()
    const from = engine.snapshot().id
    rmSync(join(box.root, 'x'))
    write(box.root, 'x/y', 'inner\n')
    const to = engine.snapshot().id

    expect(engine.diff(from, to, { lineCounts: false }).map((d) => [d.path, d.status])).toEqual([
      ['x', 'deleted'],
      ['x/y', 'added'],
    ])
  })

  it('gives old and new text for a viewer, from the store or the working tree', () => {
    write(box.root, 'a.txt', 'old text\n')
    write(box.root, 'b.bin', Buffer.from([0, 1, 2]))
    const engine = box.engine()
    const from = engine.snapshot().id
    write(box.root, 'a.txt', 'new text\n')
    const to = engine.snapshot().id
    write(box.root, 'a.txt', 'unsaved-in-checkpoint text\n')

    expect(engine.fileVersions('a.txt', from, to)).toEqual({
      path: 'a.txt',
      binary: false,
      old: { kind: 'file', size: 9, text: 'old text\n' },
      new: { kind: 'file', size: 9, text: 'new text\n' },
    })
    expect(engine.fileVersions('a.txt', from).new?.text).toBe('unsaved-in-checkpoint text\n')
    expect(engine.fileVersions('b.bin', from)).toMatchObject({ binary: true, old: { text: null } })
    expect(engine.fileVersions('missing.txt', from)).toMatchObject({ old: null, new: null })
  })
})

describe('line counts', () => {
  it('counts like a line diff', () => {
    expect(countLineChanges('', 'a\nb\n')).toEqual({ additions: 2, deletions: 0 })
    expect(countLineChanges('a\nb\nc\n', 'a\nc\n')).toEqual({ additions: 0, deletions: 1 })
    expect(countLineChanges('a\nb\nc\n', 'c\nb\na\n')).toEqual({ additions: 2, deletions: 2 })
    expect(countLineChanges('a\nb', 'a\nb\n')).toEqual({ additions: 1, deletions: 1 })
    expect(countLineChanges('same\n', 'same\n')).toEqual({ additions: 0, deletions: 0 })
  })

  it('stays fast and sensible on large, very different files', () => {
    const a = Array.from({ length: 60_000 }, (_, i) => `a${i}`).join('\n')
    const b = Array.from({ length: 60_000 }, (_, i) => `b${i}`).join('\n')
    const started = performance.now()
    expect(countLineChanges(a, b)).toEqual({ additions: 60_000, deletions: 60_000 })
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it('flags binary content by NUL bytes', () => {
    expect(isBinary(Buffer.from('plain text'))).toBe(false)
    expect(isBinary(Buffer.from([65, 0, 66]))).toBe(true)
  })
})
