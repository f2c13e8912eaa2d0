import { describe, expect, it } from 'vitest'
import type { MergeRegion } from '@shared/schema/worktree'
import { applyChoice, conflictsOf, initialResult, sideRanges, unresolved } from '../../../src/renderer/src/features/worktrees/merge-model'

const REGIONS: MergeRegion[] = [
  { kind: 'same', text: 'a\n' },
  { kind: 'conflict', current: 'mine\n', base: 'b\n', incoming: 'theirs\n' },
  { kind: 'same', text: 'c\n' },
  { kind: 'conflict', current: 'x1\n', base: 'x\n', incoming: 'x2\n' },
]

describe('merge editor model', () => {
  it('starts with each conflict marked and settles them one by one', () => {
    const start = initialResult(REGIONS)
    expect(start).toBe('a\n<<<<<<< main tree (conflict 1)\nmine\n=======\ntheirs\n>>>>>>> worktree\nc\n<<<<<<< main tree (conflict 2)\nx1\n=======\nx2\n>>>>>>> worktree\n')
    const conflicts = conflictsOf(REGIONS)
    expect(unresolved(start, 2)).toEqual([0, 1])
    const one = applyChoice(start, conflicts[1]!, 1, 'incoming') as string
    expect(unresolved(one, 2)).toEqual([0])
    const both = applyChoice(one, conflicts[0]!, 0, 'both') as string
    expect(both).toBe('a\nmine\ntheirs\nc\nx2\n')
    expect(unresolved(both, 2)).toEqual([])
  })

  it('keeps the user’s edits elsewhere in the result and knows a conflict resolved by hand', () => {
    const conflicts = conflictsOf(REGIONS)
    const edited = `// note\n${initialResult(REGIONS)}`.replace('c\n', 'c edited\n')
    expect(applyChoice(edited, conflicts[0]!, 0, 'base')).toBe('// note\na\nb\nc edited\n<<<<<<< main tree (conflict 2)\nx1\n=======\nx2\n>>>>>>> worktree\n')
    const byHand = edited.replace(/<<<<<<< main tree \(conflict 1\)\nmine\n=======\ntheirs\n>>>>>>> worktree\n/, 'merged by hand\n')
    expect(applyChoice(byHand, conflicts[0]!, 0, 'current')).toBeNull()
    expect(unresolved(byHand, 2)).toEqual([1])
  })

  it('finds each conflict in its side’s file after the previous one', () => {
    const conflicts: MergeRegion[] = [
      { kind: 'conflict', current: 'same\n', base: '', incoming: 'one\n' },
      { kind: 'conflict', current: 'same\n', base: '', incoming: 'two\n' },
    ]
    expect(sideRanges('same\nmid\nsame\n', conflictsOf(conflicts), 'current')).toEqual([
      { start: 1, end: 1 },
      { start: 3, end: 3 },
    ])
    expect(sideRanges('nothing\n', conflictsOf(conflicts), 'incoming')).toEqual([null, null])
  })
})
