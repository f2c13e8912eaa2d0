import { describe, expect, it } from 'vitest'
import type { Checkpoint } from '@shared/schema/checkpoint'
import { fileNames, hereId, moveSelection } from '../../../src/renderer/src/features/checkpoints/labels'

function cp(id: string, snapshotId: string, files: string[] = []): Checkpoint {
  return {
    id,
    projectId: 'p',
    sessionId: 's',
    messageId: null,
    snapshotId,
    trigger: 'step',
    createdAt: 0,
    summary: { added: 0, modified: files.length, deleted: 0, additions: 1, deletions: 1, files: files.map((path) => ({ path, status: 'modified' as const })), untracked: [] },
  }
}

describe('timeline labels', () => {
  it('names the first files and counts the rest', () => {
    expect(fileNames(cp('a', 's1', ['src/a.ts', 'b.ts']))).toBe('a.ts, b.ts')
    expect(fileNames(cp('a', 's1', ['1', '2', '3', '4', '5']))).toBe('1, 2, 3 +2 more')
    expect(fileNames(cp('a', 's1'))).toBe('')
  })

  it('marks the newest checkpoint at the current position', () => {
    const list = [cp('cp_1', 'x'), cp('cp_2', 'y'), cp('cp_3', 'y'), cp('cp_4', 'z')]
    expect(hereId(list, 'y')).toBe('cp_3')
    expect(hereId(list, 'z')).toBe('cp_4')
    expect(hereId(list, 'nope')).toBeNull()
    expect(hereId(list, null)).toBeNull()
  })

  it('keeps the selection on the same checkpoint when a row is added on top', () => {
    const rows = [cp('cp_3', 'c'), cp('cp_2', 'b'), cp('cp_1', 'a')]
    const selected = moveSelection(rows, 'cp_3', 1)
    expect(selected).toBe('cp_2')
    // A restore adds "Before restore" at the top: the selected id still names cp_2.
    const after = [cp('cp_4', 'd'), ...rows]
    expect(after.find((c) => c.id === selected)?.snapshotId).toBe('b')
    expect(moveSelection(after, selected, 1)).toBe('cp_1')
    expect(moveSelection(after, selected, -1)).toBe('cp_3')
    expect(moveSelection(after, 'cp_1', 5)).toBe('cp_1')
    expect(moveSelection([], null, 1)).toBeNull()
  })
})

describe('window title', () => {
  it('names the file, the project and the app', async () => {
    const { windowTitle } = await import('../../../src/renderer/src/features/workspace/title')
    expect(windowTitle('my-app', 'src/app.ts')).toBe('app.ts — my-app — Hotaru')
    expect(windowTitle('my-app', 'src/app.ts', true)).toBe('● app.ts — my-app — Hotaru')
    expect(windowTitle('my-app', null)).toBe('my-app — Hotaru')
    expect(windowTitle(null, null)).toBe('Hotaru')
  })
})
