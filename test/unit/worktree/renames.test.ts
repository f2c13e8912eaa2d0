import { describe, expect, it } from 'vitest'
import { pairExactRenames } from '../../../src/main/core/worktree/renames'
import { WorktreeFileChange } from '../../../src/shared/schema/worktree'
import type { SideChange } from '../../../src/main/core/worktree/three-way'

const add = (path: string): SideChange => ({ path, status: 'added' })
const del = (path: string): SideChange => ({ path, status: 'deleted' })
const mod = (path: string): SideChange => ({ path, status: 'modified' })

/** Content keys by path, as the caller computes them (hashes of both sides). */
const keys = (map: Record<string, string | null>) => (change: SideChange) => map[change.path] ?? null

describe('pairing exact renames', () => {
  it('turns a deleted and an added file of the same content into one rename', () => {
    const out = pairExactRenames([del('old.ts'), add('src/new.ts'), mod('other.ts')], keys({ 'old.ts': 'h1', 'src/new.ts': 'h1' }))
    expect(out).toEqual([mod('other.ts'), { path: 'src/new.ts', status: 'added', from: 'old.ts', similarity: 100 }])
  })

  it('leaves files of different content, or of unknown content, as deletion and addition', () => {
    const changes = [del('a.ts'), add('b.ts'), del('c.bin'), add('d.bin')]
    expect(pairExactRenames(changes, keys({ 'a.ts': 'h1', 'b.ts': 'h2', 'c.bin': null, 'd.bin': null }))).toEqual(changes)
  })

  it('prefers the candidate with the same basename, then goes in path order, using each file once', () => {
    const changes = [del('a/index.ts'), del('b/util.ts'), add('x/other.ts'), add('y/util.ts'), add('z/more.ts')]
    const out = pairExactRenames(changes, keys({ 'a/index.ts': 'e', 'b/util.ts': 'e', 'x/other.ts': 'e', 'y/util.ts': 'e', 'z/more.ts': 'e' }))
    expect(out).toEqual([
      { path: 'x/other.ts', status: 'added', from: 'a/index.ts', similarity: 100 },
      { path: 'y/util.ts', status: 'added', from: 'b/util.ts', similarity: 100 },
      add('z/more.ts'),
    ])
  })

  it('keeps renames already found (by git) and does not pair their new path again', () => {
    const found: SideChange = { path: 'n.ts', status: 'added', from: 'o.ts', similarity: 80 }
    const out = pairExactRenames([found, del('gone.ts')], keys({ 'n.ts': 'h', 'gone.ts': 'h' }))
    expect(out).toEqual([del('gone.ts'), found])
  })
})

describe('renames on the wire', () => {
  it('are optional fields: payloads from before parse, and a client without them still reads a rename', () => {
    const before = { path: 'a.ts', status: 'added', binary: false, additions: 1, deletions: 0, diff: '' }
    expect(WorktreeFileChange.parse(before)).toEqual(before)
    const rename = { ...before, path: 'b.ts', from: 'a.ts', similarity: 100 }
    const older = WorktreeFileChange.omit({ from: true, similarity: true })
    expect(older.parse(rename)).toEqual({ ...before, path: 'b.ts' })
  })
})
