import { describe, expect, it } from 'vitest'
import { changesFingerprint, classifyThreeWay, type SideChange } from '../../../src/main/core/worktree/three-way'

const w = (path: string, status: SideChange['status'] = 'modified'): SideChange => ({ path, status })

describe('three-way merge classification', () => {
  it('applies what only the worktree changed, with the action its change needs', () => {
    const result = classifyThreeWay([w('a.ts'), w('new.ts', 'added'), w('old.ts', 'deleted')], [], () => false)
    expect(result).toEqual({
      apply: [
        { path: 'a.ts', action: 'update' },
        { path: 'new.ts', action: 'create' },
        { path: 'old.ts', action: 'delete' },
      ],
      conflicts: [],
      same: [],
    })
  })

  it('makes a conflict of a file both sides changed differently, and nothing of the same change on both', () => {
    const result = classifyThreeWay([w('both.ts'), w('same.ts'), w('gone.ts', 'deleted')], [w('both.ts'), w('same.ts'), w('gone.ts', 'deleted')], (c) => c.path !== 'both.ts')
    expect(result.apply).toEqual([])
    expect(result.conflicts).toEqual(['both.ts'])
    expect(result.same).toEqual(['same.ts', 'gone.ts'])
  })

  it('never touches files only the main tree changed', () => {
    const result = classifyThreeWay([w('mine.ts')], [w('users.ts'), w('also-users.ts', 'added')], () => false)
    expect(result.apply.map((a) => a.path)).toEqual(['mine.ts'])
    expect(result.conflicts).toEqual([])
  })

  it('counts a worktree edit against a file the user deleted as a conflict', () => {
    expect(classifyThreeWay([w('x.ts')], [w('x.ts', 'deleted')], () => false).conflicts).toEqual(['x.ts'])
  })

  it('fingerprints content: a changed file changes the fingerprint, the same changes keep it', () => {
    const one = changesFingerprint([{ path: 'a', status: 'modified', hash: '1' }])
    expect(changesFingerprint([{ path: 'a', status: 'modified', hash: '1' }])).toBe(one)
    expect(changesFingerprint([{ path: 'a', status: 'modified', hash: '2' }])).not.toBe(one)
    expect(changesFingerprint([])).not.toBe(one)
  })
})

describe('three-way classification of renames', () => {
  const rename: SideChange = { path: 'b.ts', status: 'added', from: 'a.ts', similarity: 100 }

  it('applies a rename the main tree did not touch as a create of the new path from the old one', () => {
    expect(classifyThreeWay([rename], [w('elsewhere.ts')], () => false).apply).toEqual([{ path: 'b.ts', action: 'create', from: 'a.ts' }])
  })

  it('counts the main tree changing either path as a conflict, and the same rename as the same change', () => {
    expect(classifyThreeWay([rename], [w('a.ts')], () => false).conflicts).toEqual(['b.ts'])
    expect(classifyThreeWay([rename], [w('b.ts', 'added')], () => false).conflicts).toEqual(['b.ts'])
    expect(classifyThreeWay([rename], [w('a.ts', 'deleted'), w('b.ts', 'added')], () => true).same).toEqual(['b.ts'])
  })

  it('fingerprints the old path of a rename', () => {
    expect(changesFingerprint([{ path: 'b', status: 'added', from: 'a', hash: '1' }])).not.toBe(changesFingerprint([{ path: 'b', status: 'added', from: 'c', hash: '1' }]))
  })
})
