import { afterEach, describe, expect, it } from 'vitest'
import { closeIpcHarnesses, ipcHarness } from '../support/ipc-harness'
import { tempDir, writeTree } from '../support/temp'

afterEach(closeIpcHarnesses)

describe('project notices over IPC', () => {
  it('lists a broken skill file with its file and reason after a turn, and keeps it dismissed on the next turn', async () => {
    const { fake, call, next } = await ipcHarness()
    const root = writeTree(tempDir(), { '.hotaru/skills/broken/SKILL.md': '---\nname: broken\n---\nno description\n' })
    const project = await call<{ id: string }>('project.open', { path: root })
    const session = await call<{ id: string }>('session.create', { projectId: project.id })
    fake.enqueue({ text: 'One.' }, { text: 'Two.' })
    await call('agent.prompt', { sessionId: session.id, text: 'hi' })
    await next('agent:turnEnded')
    const notices = await call<Array<{ id: string; file?: string; message: string; source: string; level: string }>>('project.notices', { projectId: project.id })
    const broken = notices.find((n) => n.file?.endsWith('broken/SKILL.md'))
    expect(broken).toMatchObject({ source: 'project', level: 'warning', message: expect.stringContaining('`description` is missing') })
    expect(await call('project.dismissNotices', { projectId: project.id, ids: [broken?.id] })).toEqual({ dismissed: 1 })
    await call('agent.prompt', { sessionId: session.id, text: 'again' })
    await next('agent:turnEnded', () => fake.requests.length === 2)
    const after = await call<Array<{ file?: string }>>('project.notices', { projectId: project.id })
    expect(after.some((n) => n.file?.endsWith('broken/SKILL.md'))).toBe(false)
  })
})
