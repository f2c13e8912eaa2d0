import { describe, expect, it } from 'vitest'
import type { Checkpoint } from '@shared/schema/checkpoint'
import { fileNames, hereId, moveSelection } from '../../../src/renderer/src/features/checkpoints/labels'
import { checkpointTitle, promptLine } from '../../../src/shared/checkpoint-label'

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
    // After a restore to cp_2, it is "here", not the later cp_3 with the same snapshot; once the tree moves on, it is not.
    expect(hereId(list, 'y', 'cp_2')).toBe('cp_2')
    expect(hereId(list, 'z', 'cp_2')).toBe('cp_4')
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

describe('checkpoint titles say what happened', () => {
  const step = (files: { path: string; status: 'added' | 'modified' | 'deleted' }[], additions: number, deletions: number, actions?: Checkpoint['actions']): Checkpoint => ({
    ...cp('c', 's'),
    summary: {
      added: files.filter((f) => f.status === 'added').length,
      modified: files.filter((f) => f.status === 'modified').length,
      deleted: files.filter((f) => f.status === 'deleted').length,
      additions,
      deletions,
      files,
      untracked: [],
    },
    ...(actions ? { actions } : {}),
  })

  it('names the verb, the file or the count, and the lines', () => {
    expect(checkpointTitle(step([{ path: 'src/a.ts', status: 'modified' }], 4, 1, [{ tool: 'edit', subject: 'src/a.ts' }]))).toBe('Edited src/a.ts +4 −1')
    expect(checkpointTitle(step([{ path: 'a', status: 'added' }, { path: 'b', status: 'added' }, { path: 'c', status: 'added' }], 30, 0))).toBe('Created 3 files +30')
    expect(checkpointTitle(step([{ path: 'old.ts', status: 'deleted' }], 0, 7))).toBe('Deleted old.ts −7')
    expect(checkpointTitle(step([{ path: 'a', status: 'added' }, { path: 'b', status: 'modified' }], 5, 2))).toBe('Changed 2 files +5 −2')
    expect(checkpointTitle(step([{ path: 'img.png', status: 'modified' }], 0, 0))).toBe('Edited img.png')
  })

  it('says which command or tool ran', () => {
    const out = [{ path: 'dist/x.js', status: 'added' as const }]
    expect(checkpointTitle(step(out, 1, 0, [{ tool: 'bash', subject: 'npm test' }]))).toBe('Ran `npm test` · Created dist/x.js +1')
    expect(checkpointTitle(step(out, 1, 0, [{ tool: 'bash', subject: 'npm run build' }, { tool: 'bash', subject: 'ls' }, { tool: 'bash', subject: 'pwd' }]))).toBe(
      'Ran `npm run build` and 2 more commands · Created dist/x.js +1',
    )
    expect(checkpointTitle(step(out, 1, 0, [{ tool: 'github_create_file' }]))).toBe('Ran github_create_file · Created dist/x.js +1')
    expect(checkpointTitle(step(out, 1, 0, [{ tool: 'bash', subject: `echo ${'x'.repeat(100)}` }]))).toMatch(/^Ran `echo x{54}…` · /)
    expect(checkpointTitle(step(out, 1, 0, [{ tool: 'bash', subject: 'cd web\nnpm i' }]))).toBe('Ran `cd web …` · Created dist/x.js +1')
    // An older checkpoint without files or calls still reads as a sentence.
    expect(checkpointTitle(step([], 0, 0))).toBe('After a tool step')
  })

  it('quotes the message a checkpoint precedes, without the review note sent ahead of it', () => {
    expect(checkpointTitle({ ...cp('m', 's'), trigger: 'message', prompt: 'Fix the bug' })).toBe('Before your message “Fix the bug”')
    expect(checkpointTitle({ ...cp('m', 's'), trigger: 'message' }, 'from the transcript')).toBe('Before your message “from the transcript”')
    expect(checkpointTitle({ ...cp('m', 's'), trigger: 'message' })).toBe('Before your message')
    expect(promptLine('Review note: …\n[End of review note]\n\n  Then ship it\nsecond line')).toBe('Then ship it')
    expect(promptLine('y'.repeat(200))).toHaveLength(120)
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
