import { describe, expect, it } from 'vitest'
import type { Review, ReviewFile, ReviewHunk } from '@shared/schema/review'
import { fileState, hunkAnchor, nextOpenFile, reviewProgress } from '../../../src/renderer/src/features/checkpoints/review-model'

function hunk(partial: Partial<ReviewHunk>): ReviewHunk {
  return { index: 0, oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [], ...partial }
}

function file(path: string, hunks: ReviewHunk[], reviewed = false, status: ReviewFile['status'] = 'modified'): ReviewFile {
  return { path, status, wholeFile: false, hunks, reviewed }
}

describe('review model', () => {
  it('anchors a hunk at its first changed line, past the leading context', () => {
    const h = hunk({ newStart: 7, lines: [{ kind: 'context', text: 'a' }, { kind: 'context', text: 'b' }, { kind: 'del', text: 'c' }, { kind: 'add', text: 'C' }] })
    expect(hunkAnchor(h)).toBe(9)
    expect(hunkAnchor(hunk({ newStart: 1, lines: [{ kind: 'add', text: 'x' }] }))).toBe(1)
  })

  it('describes a file by its decisions', () => {
    expect(fileState(file('a', [hunk({}), hunk({ index: 1 })]))).toBe('2 of 2 hunks open')
    expect(fileState(file('a', [hunk({ decision: 'rejected' })], true, 'added'))).toBe('rejected (deleted)')
    expect(fileState(file('a', [hunk({ decision: 'accepted' })], true))).toBe('accepted')
    expect(fileState(file('a', [hunk({ decision: 'accepted' }), hunk({ index: 1, decision: 'rejected' })], true))).toBe('reviewed')
  })

  it('moves on to the next unreviewed file', () => {
    const review: Review = {
      sessionId: 's',
      fromId: 'f',
      toId: 't',
      files: [file('a', [], false), file('b', [], true), file('c', [], true), file('d', [], false)],
    }
    expect(nextOpenFile(review, 'b')).toBe('d')
    expect(nextOpenFile(review, 'd')).toBe('a')
    expect(reviewProgress(review)).toEqual({ reviewed: 2, total: 4 })
  })
})

describe('turn review range', () => {
  it('offers a review only for turns whose steps changed files', async () => {
    const { turnRange } = await import('../../../src/renderer/src/features/review/latest-turn')
    const base = { projectId: 'p', sessionId: 's', snapshotId: 'x', createdAt: 0, summary: { added: 0, modified: 0, deleted: 0, additions: 0, deletions: 0, files: [], untracked: [] } }
    const list = [
      { ...base, id: 'cp_a', trigger: 'message' as const, messageId: 'm1' },
      { ...base, id: 'cp_b', trigger: 'message' as const, messageId: 'm3' },
      { ...base, id: 'cp_c', trigger: 'step' as const, messageId: 'm4', summary: { ...base.summary, modified: 1, files: [{ path: 'a', status: 'modified' as const }] } },
    ]
    expect(turnRange(list, 'm1', ['m2'])).toBeNull()
    expect(turnRange(list, 'm3', ['m4'])).toEqual({ fromId: 'cp_b', toId: 'cp_c', files: 1 })
  })
})

describe('permission rules per tool', () => {
  it('groups by tool in order and marks rules a later one with the same pattern overrides', async () => {
    const { groupRules } = await import('../../../src/renderer/src/features/settings/permission-groups')
    const groups = groupRules([
      { permission: 'bash', pattern: '*', action: 'ask', layer: 'agent' },
      { permission: 'edit', pattern: '*', action: 'ask', layer: 'agent' },
      { permission: 'bash', pattern: 'git *', action: 'allow', layer: 'user', file: 'u' },
      { permission: 'bash', pattern: '*', action: 'deny', layer: 'project', file: 'p' },
    ])
    expect(groups.map((g) => g.permission)).toEqual(['bash', 'edit'])
    expect(groups[0]?.rules.map((r) => [r.pattern, r.layer, r.overridden])).toEqual([
      ['*', 'agent', true],
      ['git *', 'user', false],
      ['*', 'project', false],
    ])
  })
})
