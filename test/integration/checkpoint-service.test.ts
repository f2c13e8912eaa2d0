import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PartOf } from '@shared/schema/session'
import { atomicTempPath } from '../../src/main/core/util/atomic-write'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'

function setup(files: Record<string, string> = { 'a.txt': 'one\n' }) {
  const services = testServices()
  const root = writeTree(tempDir(), files)
  const project = services.projects.openFolder(root)
  const session = services.sessions.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-6' })
  const message = (text: string) => {
    const m = services.sessions.addMessage({ sessionId: session.id, role: 'user', agent: 'build', model: session.model, completedAt: Date.now() })
    services.sessions.addPart<PartOf<'text'>>({ sessionId: session.id, messageId: m.id, type: 'text', text })
    return m
  }
  return { services, root, project, session, message }
}

describe('checkpoint service', () => {
  it('shows a file the user edited after the agent as a conflict and keeps it', async () => {
    const { services, root, session, message } = setup()
    const first = await services.checkpoints.beforeMessage(session, message('go').id)
    writeFileSync(join(root, 'a.txt'), 'agent edit\n')
    const step = await services.checkpoints.afterStep(session, message('x').id, { paths: ['a.txt'], unlisted: false })
    expect(step?.summary.modified).toBe(1)
    writeFileSync(join(root, 'a.txt'), 'user edit\n')
    const preview = await services.checkpoints.preview(first?.id ?? '', { mode: 'code' })
    expect(preview.conflicts).toEqual([{ path: 'a.txt', reason: 'user-modified', resolution: 'keep' }])
    await services.checkpoints.restore(first?.id ?? '', { mode: 'code', expectCurrentId: preview.currentId ?? undefined })
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('user edit\n')
    await services.checkpoints.restore(first?.id ?? '', { mode: 'code', overwriteConflicts: true })
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('one\n')
  })

  it('records no checkpoint when the engine ends after the walk but before the pre-images are applied', async () => {
    const { services, root, project, session, message } = setup({ 'a.txt': 'one\n', 'b.txt': 'bee\n' })
    const engine = services.checkpoints.engine(project)
    let release = (): void => undefined
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const snapshot = engine.snapshot
    Object.defineProperty(engine, 'snapshot', {
      value: async (...args: Parameters<typeof snapshot>) => {
        await released
        return snapshot(...args)
      },
    })
    const withPreImages = engine.withPreImages
    Object.defineProperty(engine, 'withPreImages', {
      value: async (...args: Parameters<typeof withPreImages>) => {
        // The app quits (or the worker dies) between the walk and the derived snapshot.
        await engine.dispose()
        return withPreImages(...args)
      },
    })
    const checkpoint = services.checkpoints.beforeMessage(session, message('go').id)
    // The write goes ahead at once: its pre-image is kept for the checkpoint still being taken.
    await services.checkpoints.beforeWrite(project.id, [join(root, 'a.txt')])
    writeFileSync(join(root, 'a.txt'), 'agent edit\n')
    release()
    expect(await checkpoint).toBeUndefined()
    // Nothing claims to be the state before the message: no checkpoint holding the edit as the "before".
    expect(services.checkpoints.list(project.id)).toEqual([])
  })

  it('leaves a write’s temp file out of a checkpoint whose walk ran while the write was in progress', async () => {
    const { services, root, project, session, message } = setup({ 'a.txt': 'one\n', 'b.txt': 'bee\n' })
    const engine = services.checkpoints.engine(project)
    const target = join(root, 'a.txt')
    const snapshot = engine.snapshot
    Object.defineProperty(engine, 'snapshot', {
      value: async (...args: Parameters<typeof snapshot>) => {
        // The message's walk runs while the write of a.txt is half done: its temp file is beside it.
        const temp = atomicTempPath(target)
        writeFileSync(temp, 'agent edit\n')
        const result = await snapshot(...args)
        renameSync(temp, target)
        return result
      },
    })
    const before = services.checkpoints.beforeMessage(session, message('go').id)
    await services.checkpoints.beforeWrite(project.id, [target])
    const first = await before
    Object.defineProperty(engine, 'snapshot', { value: snapshot })
    const step = await services.checkpoints.afterStep(session, message('x').id, { paths: ['a.txt'], unlisted: false })
    // The turn changed a.txt and nothing else: no file that existed for a moment only.
    expect(step?.summary.files.map((f) => `${f.status} ${f.path}`)).toEqual(['modified a.txt'])
    expect((await services.checkpoints.diff(first?.id ?? '')).map((entry) => entry.path)).toEqual(['a.txt'])
  })

  it('lets a write wait when a restore is queued, instead of going ahead under it', async () => {
    const { services, root, project, session, message } = setup()
    const first = await services.checkpoints.beforeMessage(session, message('go').id)
    writeFileSync(join(root, 'a.txt'), 'two\n')
    await services.checkpoints.afterStep(session, message('x').id, { paths: ['a.txt'], unlisted: false })
    const restored = services.checkpoints.restore(first?.id ?? '', { mode: 'code' })
    let waited = false
    await services.checkpoints.beforeWrite(project.id, [join(root, 'a.txt')]).then(() => {
      waited = readFileSync(join(root, 'a.txt'), 'utf8') === 'one\n'
    })
    await restored
    expect(waited).toBe(true)
  })

  it('records a step checkpoint only when the tree changed', async () => {
    const { services, session, message } = setup()
    await services.checkpoints.beforeMessage(session, message('go').id)
    expect(await services.checkpoints.afterStep(session, message('x').id, { paths: [], unlisted: false })).toBeUndefined()
    expect(await services.checkpoints.afterStep(session, message('y').id, { paths: [], unlisted: true })).toBeUndefined()
  })

  it('forks a session from a checkpoint with the conversation up to it', async () => {
    const { services, session, message } = setup()
    message('before')
    const second = message('second')
    const cp = await services.checkpoints.beforeMessage(session, second.id)
    message('third')
    const { session: forked } = await services.checkpoints.fork(cp?.id ?? '')
    const texts = services.sessions.messages(forked.id).flatMap((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])))
    expect(texts).toEqual(['before'])
    expect(forked.title).toContain('(fork)')
  })

  it('keeps storage under the quota by dropping the oldest checkpoints, never the newest', async () => {
    const { services, root, project, session, message } = setup({ 'a.txt': 'one\n', 'hotaru.json': JSON.stringify({ snapshot: { quotaBytes: 1 } }) })
    const { config } = await services.configs.of(project).load()
    for (let i = 0; i < 70; i++) {
      writeFileSync(join(root, 'a.txt'), `content ${i}\n`.repeat(50))
      await services.checkpoints.beforeMessage(session, message(`m${i}`).id, config)
    }
    const left = services.checkpoints.list(session.projectId)
    expect(left.length).toBeLessThan(70)
    expect(left.length).toBeGreaterThanOrEqual(50)
    const newest = left.at(-1)
    expect((await services.checkpoints.preview(newest?.id ?? '', { mode: 'code' })).writes).toEqual([])
  })

  it('builds the snapshot engine from the project’s own config, whichever caller comes first', async () => {
    const { services, root, project, session, message } = setup({ 'a.txt': 'one\n', 'hotaru.json': JSON.stringify({ snapshot: { exclude: ['secret.txt'] } }) })
    await services.configs.of(project).load()
    // The first caller passes no config at all (as a diff or restore over IPC does).
    const first = await services.checkpoints.beforeMessage(session, message('go').id)
    writeFileSync(join(root, 'secret.txt'), 'not for snapshots\n')
    writeFileSync(join(root, 'a.txt'), 'two\n')
    const step = await services.checkpoints.afterStep(session, message('x').id, { paths: [], unlisted: true })
    expect(step?.summary.files.map((f) => f.path)).toEqual(['a.txt'])
    expect((await services.checkpoints.diff(first?.id ?? '')).map((entry) => entry.path)).toEqual(['a.txt'])
  })
})
