import { describe, expect, it } from 'vitest'
import { diffSummary, editedFiles, type ToolPart } from '../../../src/renderer/src/features/chat/tools/describe'

function editPart(tool: string, metadata: Record<string, unknown>, input: Record<string, unknown> = {}): ToolPart {
  return {
    id: 'p1',
    sessionId: 's1',
    messageId: 'm1',
    type: 'tool',
    tool,
    callId: 'c1',
    state: { status: 'completed', input, output: 'ok', metadata, startedAt: 1, endedAt: 2 },
  } as ToolPart
}

describe('edit chips', () => {
  it('counts a new file and points at its first line', () => {
    expect(diffSummary('--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n')).toEqual({ additions: 2, deletions: 0, line: 1 })
  })

  it('points past the leading context at the first changed line, over every hunk', () => {
    expect(diffSummary('@@ -5,3 +5,3 @@\n a\n b\n-c\n+C\n@@ -20,1 +20,2 @@\n x\n+y\n')).toEqual({ additions: 2, deletions: 1, line: 7 })
  })

  it('names the file relative to the project, with the tool’s counts', () => {
    const part = editPart('edit', { filePath: '/p/src/x.ts', diff: '@@ -1,1 +1,1 @@\n-a\n+b\n', additions: 4, deletions: 1 })
    expect(editedFiles(part, '/p')).toEqual([{ path: 'src/x.ts', additions: 4, deletions: 1, line: 1 }])
  })

  it('lists every file of a patch', () => {
    const part = editPart('apply_patch', { files: [{ path: 'a.ts', diff: '@@ -2,1 +2,1 @@\n-a\n+b\n' }, { path: 'b.ts', diff: '@@ -0,0 +1,1 @@\n+new\n' }] })
    expect(editedFiles(part, '/p').map((f) => [f.path, f.additions, f.deletions, f.line])).toEqual([
      ['a.ts', 1, 1, 2],
      ['b.ts', 1, 0, 1],
    ])
  })
})
