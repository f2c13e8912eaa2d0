import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PartOf } from '@shared/schema/session'
import { REVIEW_NOTE_END } from '@shared/schema/review'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'

/** A turn that edits a.txt in two far-apart places and creates new.txt, recorded as real checkpoints. */
async function turn(dataDir?: string) {
  const services = testServices(dataDir ? { dataDir } : undefined)
  const root = writeTree(tempDir(), { 'a.txt': TEN })
  const project = services.projects.openFolder(root)
  const session = services.sessions.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-6' })
  const message = () => {
    const m = services.sessions.addMessage({ sessionId: session.id, role: 'user', agent: 'build', model: session.model, completedAt: Date.now() })
    services.sessions.addPart<PartOf<'text'>>({ sessionId: session.id, messageId: m.id, type: 'text', text: 'go' })
    return m
  }
  const from = await services.checkpoints.beforeMessage(session, message().id)
  writeFileSync(join(root, 'a.txt'), TEN.replace('line 1\n', 'LINE ONE\n').replace('line 10\n', 'LINE TEN\n'))
  writeFileSync(join(root, 'new.txt'), 'x\ny\nz\n')
  const to = await services.checkpoints.afterStep(session, message().id, { paths: [], unlisted: true })
  if (!from || !to) throw new Error('no checkpoints')
  const range = { sessionId: session.id, fromId: from.id, toId: to.id }
  return { services, root, session, range }
}

describe('review service', () => {
  it('lists structured hunks per file with no phantom line for a new file', async () => {
    const { services, range } = await turn()
    const review = await services.reviews.get(range)
    const a = review.files.find((f) => f.path === 'a.txt')
    const added = review.files.find((f) => f.path === 'new.txt')
    expect(a?.hunks).toHaveLength(2)
    expect(a?.hunks[0]?.lines.filter((l) => l.kind !== 'context')).toEqual([
      { kind: 'del', text: 'line 1' },
      { kind: 'add', text: 'LINE ONE' },
    ])
    expect(added?.status).toBe('added')
    expect(added?.hunks).toHaveLength(1)
    expect(added?.hunks[0]).toMatchObject({ oldStart: 1, oldLines: 0, newStart: 1, newLines: 3 })
    expect(added?.hunks[0]?.lines.every((l) => l.kind === 'add')).toBe(true)
  })

  it('rejects one hunk on disk, keeps the other, and tells the model once', async () => {
    const { services, root, range, session } = await turn()
    const outcome = await services.reviews.decide({ ...range, action: 'reject', path: 'a.txt', hunk: 1 })
    expect(outcome.conflicts).toEqual([])
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe(TEN.replace('line 1\n', 'LINE ONE\n'))
    const a = outcome.review.files.find((f) => f.path === 'a.txt')
    expect(a?.hunks.map((h) => h.decision)).toEqual([undefined, 'rejected'])
    expect(a?.reviewed).toBe(false)
    expect(services.reviews.pending(session.id)).toHaveLength(1)
    const text = services.reviews.withNote(session.id, 'next')
    expect(text).toContain('-line 10')
    expect(text).toContain('+LINE TEN')
    expect(text.endsWith(`${REVIEW_NOTE_END}\n\nnext`)).toBe(true)
    expect(services.reviews.withNote(session.id, 'again')).toBe('again')
  })

  it('deletes a rejected new file instead of leaving it empty, undoably, and a restore does not keep it as the user\'s', async () => {
    const { services, root, range } = await turn()
    const outcome = await services.reviews.decide({ ...range, action: 'reject', path: 'new.txt' })
    expect(existsSync(join(root, 'new.txt'))).toBe(false)
    expect(outcome.undoCheckpointId).toMatch(/^cp_/)
    const undo = services.checkpoints.get(outcome.undoCheckpointId ?? '')
    expect(undo.trigger).toBe('review')
    // The deletion was ours: restoring the turn's end brings the file back without a "user" conflict.
    const preview = await services.checkpoints.preview(range.toId, { mode: 'code' })
    expect(preview.userCreated).toEqual([])
    expect(preview.conflicts).toEqual([])
    await services.checkpoints.restore(outcome.undoCheckpointId ?? '', { mode: 'code' })
    expect(readFileSync(join(root, 'new.txt'), 'utf8')).toBe('x\ny\nz\n')
  })

  it('rejecting the single hunk of a new file deletes it too', async () => {
    const { services, root, range } = await turn()
    await services.reviews.decide({ ...range, action: 'reject', path: 'new.txt', hunk: 0 })
    expect(existsSync(join(root, 'new.txt'))).toBe(false)
  })

  it('leaves lines the user changed since alone and reports them', async () => {
    const { services, root, range } = await turn()
    writeFileSync(join(root, 'a.txt'), TEN.replace('line 1\n', 'USER\n').replace('line 10\n', 'LINE TEN\n'))
    const outcome = await services.reviews.decide({ ...range, action: 'reject', path: 'a.txt' })
    expect(outcome.conflicts).toEqual([{ path: 'a.txt', hunk: 0, reason: expect.stringContaining('changed since') }])
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe(TEN.replace('line 1\n', 'USER\n'))
  })

  it('accept all marks every file reviewed, and the decisions survive a restart', async () => {
    const dataDir = tempDir()
    const first = await turn(dataDir)
    const outcome = await first.services.reviews.decide({ ...first.range, action: 'accept' })
    expect(outcome.review.files.every((f) => f.reviewed)).toBe(true)
    expect(readFileSync(join(first.root, 'new.txt'), 'utf8')).toBe('x\ny\nz\n')
    await first.services.dispose()
    const again = testServices({ dataDir })
    again.projects.openFolder(first.root)
    expect((await again.reviews.get(first.range)).files.every((f) => f.reviewed)).toBe(true)
  })

  it('reject all reverts every file', async () => {
    const { services, root, range } = await turn()
    await services.reviews.decide({ ...range, action: 'reject' })
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe(TEN)
    expect(existsSync(join(root, 'new.txt'))).toBe(false)
    expect((await services.reviews.get(range)).files.every((f) => f.reviewed && f.hunks.every((h) => h.decision === 'rejected'))).toBe(true)
  })
})
