import { describe, expect, it } from 'vitest'
import { createPatch } from 'diff'
import type { PendingPermission } from '@shared/ipc/permission'
import { proposedBlocks, proposedFile } from '../../../src/renderer/src/features/review/ProposedEdit'

const BEFORE = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join('\n') + '\n'

function ask(partial: Partial<PendingPermission>): PendingPermission {
  return { id: 'a1', sessionId: 's', projectId: 'p', permission: 'edit', patterns: ['x.txt'], always: ['*'], title: 'Edit x.txt', createdAt: 1, ...partial }
}

describe('an edit waiting for approval, placed in the file before it', () => {
  it('marks the replaced lines and puts the new ones after them; an addition goes after its context', () => {
    const diff = createPatch('x.txt', BEFORE, BEFORE.replace('c\n', 'C\nC2\n').replace('i\n', 'i\nnew\n'))
    const blocks = proposedBlocks(diff)
    expect(blocks.map((b) => [b.removed, b.removedText, b.added, b.afterLine])).toEqual([
      [[3], ['c'], ['C', 'C2'], 3],
      [[], [], ['new'], 9],
    ])
  })

  it('takes single-file edit asks only', () => {
    const diff = createPatch('x.txt', 'a\n', 'b\n')
    expect(proposedFile(ask({ metadata: { files: ['x.txt'], diff } }))).toEqual({ path: 'x.txt', diff })
    expect(proposedFile(ask({ metadata: { files: ['x.txt', 'y.txt'], diff } }))).toBeNull()
    expect(proposedFile(ask({ permission: 'bash', metadata: { diff } }))).toBeNull()
  })
})
