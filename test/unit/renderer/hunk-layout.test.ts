import { describe, expect, it } from 'vitest'
import { structuredPatch } from 'diff'
import type { ReviewFile, ReviewHunk, ReviewLine } from '@shared/schema/review'
import { liveCounts, placeOpenHunks, withoutRejected } from '../../../src/renderer/src/features/review/hunk-layout'

const BEFORE = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'
// Hunk 0 replaces line 2 with two lines; hunk 1 removes line 15.
const AFTER = BEFORE.replace('line 2\n', 'TWO\nTWO-B\n').replace('line 15\n', '')

/** The hunks as core sends them (3 lines of context, as `hotaru review` computes them). */
function reviewHunks(before: string, after: string): ReviewHunk[] {
  return structuredPatch('a/f.txt', 'b/f.txt', before, after, '', '', { context: 3 }).hunks.map((h, index) => ({
    index,
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines.map((l): ReviewLine => ({ kind: l[0] === '+' ? 'add' : l[0] === '-' ? 'del' : 'context', text: l.slice(1) })),
  }))
}

function fileWith(decisions: Array<'accepted' | 'rejected' | undefined>): ReviewFile {
  const hunks = reviewHunks(BEFORE, AFTER).map((h) => (decisions[h.index] ? { ...h, decision: decisions[h.index] } : h))
  return { path: 'f.txt', status: 'modified', wholeFile: false, hunks, reviewed: false }
}

describe('the agent’s hunks placed in the file as it is now', () => {
  it('marks added lines and places removed ones above the line that follows them', () => {
    const [first, second] = placeOpenHunks(fileWith([]))
    expect(first).toMatchObject({ index: 0, anchor: 2, added: [2, 3], removed: [{ beforeLine: 2, lines: ['line 2'] }], additions: 2, deletions: 1 })
    expect(second).toMatchObject({ index: 1, anchor: 16, added: [], removed: [{ beforeLine: 16, lines: ['line 15'] }] })
  })

  it('moves later hunks up or down by what a rejected hunk gave back, and leaves decided hunks out', () => {
    const file = fileWith(['rejected', undefined])
    expect(placeOpenHunks(file).map((h) => [h.index, h.anchor])).toEqual([[1, 15]])
    expect(placeOpenHunks(fileWith(['accepted', undefined])).map((h) => h.index)).toEqual([1])
    expect(placeOpenHunks(fileWith(['accepted', undefined]), true).map((h) => h.index)).toEqual([0, 1])
  })

  it('takes rejected hunks out of the agent’s version and out of the counts', () => {
    expect(withoutRejected(AFTER, fileWith(['rejected', undefined]))).toBe(BEFORE.replace('line 15\n', ''))
    expect(withoutRejected(AFTER, fileWith(['rejected', 'rejected']))).toBe(BEFORE)
    expect(withoutRejected(AFTER, fileWith([undefined, 'rejected']))).toBe(BEFORE.replace('line 2\n', 'TWO\nTWO-B\n'))
    expect(liveCounts(fileWith(['rejected', undefined]))).toEqual({ additions: 0, deletions: 1 })
    expect(liveCounts(fileWith([]))).toEqual({ additions: 2, deletions: 2 })
  })
})
