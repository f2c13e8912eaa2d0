import { describe, expect, it } from 'vitest'
import { mergeText, mergedText, parseMerged } from '../../../src/main/core/worktree/merge-text'

describe('mergeText (git merge-file)', () => {
  it('merges changes to different lines and reports no conflict', async () => {
    const merge = await mergeText('a\nB\nc\nd\ne\n', 'a\nb\nc\nd\ne\n', 'a\nb\nc\nd\nE\n')
    expect(merge.conflicts).toBe(0)
    expect(mergedText(merge.regions, () => '')).toBe('a\nB\nc\nd\nE\n')
  })

  it('splits an overlapping change into a conflict region with all three versions', async () => {
    const merge = await mergeText('a\nmine\nc\n', 'a\nb\nc\n', 'a\ntheirs\nc\n')
    expect(merge.conflicts).toBe(1)
    expect(merge.regions).toEqual([
      { kind: 'same', text: 'a\n' },
      { kind: 'conflict', current: 'mine\n', base: 'b\n', incoming: 'theirs\n' },
      { kind: 'same', text: 'c\n' },
    ])
  })

  it('does not take conflict markers inside the files for its own', async () => {
    const current = 'x\n<<<<<<< current\nmine\n=======\n'
    const incoming = 'x\n<<<<<<< current\ntheirs\n=======\n'
    const merge = await mergeText(current, 'x\n<<<<<<< current\nb\n=======\n', incoming)
    expect(merge.conflicts).toBe(1)
    expect(mergedText(merge.regions, (r) => r.current)).toBe(current)
    expect(mergedText(merge.regions, (r) => r.incoming)).toBe(incoming)
  })

  it('keeps CRLF line endings of the content', async () => {
    const merge = await mergeText('a\r\nmine\r\nc\r\n', 'a\r\nb\r\nc\r\n', 'a\r\ntheirs\r\nc\r\n')
    expect(merge.regions[1]).toEqual({ kind: 'conflict', current: 'mine\r\n', base: 'b\r\n', incoming: 'theirs\r\n' })
  })

  it('refuses output with a conflict that never ends', () => {
    expect(() => parseMerged('a\n<<<<<<< current\nx\n', 7)).toThrow(/end marker/)
  })
})
