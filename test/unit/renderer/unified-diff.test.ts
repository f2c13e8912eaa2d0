import { describe, expect, it } from 'vitest'
import { fromUnifiedDiff } from '../../../src/renderer/src/features/chat/tools/describe'

describe('tool card diffs', () => {
  it('shows a new file with an empty before side (no phantom deleted line 1)', () => {
    const view = fromUnifiedDiff('--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n', 'n.txt')
    expect(view.original).toBe('')
    expect(view.modified).toBe('one\ntwo\n')
  })

  it('keeps context on both sides and separates hunks', () => {
    const view = fromUnifiedDiff('@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -9,1 +9,1 @@\n-x\n+X\n', 'f')
    expect(view.original).toBe('a\nb\n⋯\nx\n')
    expect(view.modified).toBe('a\nB\n⋯\nX\n')
    expect(view.lines).toBe(4)
  })
})
