import { existsSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Worktree } from '@shared/schema/worktree'
import { closeIpcHarnesses, ipcHarness } from '../../support/ipc-harness'
import { gitRepo } from '../../support/git-repo'
import { tempDir } from '../../support/temp'

afterEach(closeIpcHarnesses)

/** The text of the last user message of a recorded Anthropic request. */
function lastUserText(body: unknown): string {
  const messages = (body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? []
  return JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '')
}

describe('worktree sessions over IPC', () => {
  it('a main-tree session and a worktree session run at once, each asking and stopped on its own', async () => {
    const { fake, services, call, next, events } = await ipcHarness()
    const root = gitRepo({ 'README.md': 'hi\n' })
    const project = await call<{ id: string }>('project.open', { path: root })
    const worktree = await call<Worktree>('worktree.create', { projectId: project.id, name: 'side' })
    expect(worktree).toMatchObject({ name: 'side', kind: 'git', open: true, sessions: 0 })
    expect(await call('project.list', {})).toEqual([expect.objectContaining({ id: project.id })])
    await next('worktree:changed', (p) => p.name === 'side')

    const main = await call<{ id: string }>('session.create', { projectId: project.id })
    const side = await call<{ id: string }>('session.create', { projectId: worktree.projectId })
    // Each session's first request asks to run a command in its own tree; then it answers.
    const script = (request: { body: unknown }) => {
      const text = lastUserText(request.body)
      if (text.includes('tool_result')) return { text: 'done' }
      const file = text.includes('in the worktree') ? 'side.txt' : 'main.txt'
      return { toolCalls: [{ name: 'bash', args: { command: `touch ${file}`, description: `make ${file}` } }] }
    }
    fake.enqueue(script, script, script)
    await call('agent.prompt', { sessionId: main.id, text: 'in the main tree' })
    await call('agent.prompt', { sessionId: side.id, text: 'in the worktree' })
    const mainAsk = await next('permission:asked', (p) => (p.request as { sessionId: string }).sessionId === main.id)
    const sideAsk = await next('permission:asked', (p) => (p.request as { sessionId: string }).sessionId === side.id)
    expect(services.agents.isBusy(main.id) && services.agents.isBusy(side.id)).toBe(true)
    expect((sideAsk.request as { projectId: string }).projectId).toBe(worktree.projectId)
    const listed = await call<Worktree[]>('worktree.list', { projectId: project.id })
    expect(listed[0]).toMatchObject({ status: 'running', sessions: 1 })

    // The worktree's ask is answered; the main session is stopped while it waits.
    await call('permission.reply', { id: (sideAsk.request as { id: string }).id, reply: 'once' })
    expect(await next('agent:turnEnded', (p) => p.sessionId === side.id)).toMatchObject({ status: 'completed' })
    expect(await call('agent.abort', { sessionId: main.id })).toEqual({ aborted: true })
    expect(await next('agent:turnEnded', (p) => p.sessionId === main.id)).toMatchObject({ status: 'aborted' })
    expect(mainAsk).toBeDefined()
    expect(existsSync(join(worktree.path, 'side.txt'))).toBe(true)
    expect(existsSync(join(root, 'side.txt'))).toBe(false)
    expect(existsSync(join(root, 'main.txt'))).toBe(false)
    // This client showed the project, so it heard the worktree's session events too.
    expect(events.some((e) => e.channel === 'session:status' && e.envelope.projectId === worktree.projectId)).toBe(true)

    const preview = await call<{ apply: Array<{ path: string }> }>('worktree.previewMerge', { projectId: project.id, name: 'side' })
    expect(preview.apply.map((a) => a.path)).toEqual(['side.txt'])
    expect(await call('worktree.remove', { projectId: project.id, name: 'side', force: true })).toEqual({ removed: true, branchKept: false })
    expect(await next('worktree:changed', (p) => p.name === 'side' && p.worktree === null)).toBeDefined()
    expect(services.projects.find(worktree.projectId)).toBeUndefined()
  })

  it('refuses to merge with conflicts over IPC with the paths, and removes only with force', async () => {
    const { call } = await ipcHarness()
    const root = gitRepo({ 'a.txt': 'a\n' })
    const project = await call<{ id: string }>('project.open', { path: root })
    const worktree = await call<Worktree>('worktree.create', { projectId: project.id, name: 'w1' })
    await call('fs.write', { projectId: worktree.projectId, path: 'a.txt', content: 'wt\n' })
    await call('fs.write', { projectId: project.id, path: 'a.txt', content: 'user\n' })
    await expect(call('worktree.merge', { projectId: project.id, name: 'w1' })).rejects.toThrow(/WorktreeConflicts: 1 file/)
    await expect(call('worktree.remove', { projectId: project.id, name: 'w1' })).rejects.toThrow(/WorktreeUnmerged/)
    const versions = await call<{ old: { text: string }; new: { text: string } }>('worktree.file', { projectId: project.id, name: 'w1', path: 'a.txt', side: 'main' })
    expect([versions.old.text, versions.new.text]).toEqual(['a\n', 'user\n'])
    // A link to a folder elsewhere is not followed out of the worktree.
    symlinkSync(tempDir(), join(worktree.path, 'out'))
    await expect(call('worktree.file', { projectId: project.id, name: 'w1', path: 'out/secret.txt' })).rejects.toThrow(/OutsideWorkspace/)
    const merged = await call<{ written: number }>('worktree.merge', { projectId: project.id, name: 'w1', overwriteConflicts: true })
    expect(merged.written).toBe(2)
    expect(await call('worktree.remove', { projectId: project.id, name: 'w1' })).toEqual({ removed: true, branchKept: false })
  })
})
