import { describe, expect, it } from 'vitest'
import type { PendingPermission } from '../../../src/shared/ipc/permission'
import type { Services } from '../../../src/main/core/services'
import { gitRepo } from '../../support/git-repo'
import { testServices } from '../../support/services'

/** Asks for `bash git status` in a project's session; the returned promise settles when it is allowed or rejected. */
function askGitStatus(services: Services, projectId: string, sessionId: string): Promise<void> {
  return services.permissions.ask({
    sessionId,
    projectId,
    ruleset: [],
    permission: 'bash',
    patterns: ['git status'],
    always: ['git status*'],
    title: 'git status',
  })
}

/** The next ask the user is shown, of one session. */
function nextAsk(services: Services, sessionId: string): Promise<PendingPermission> {
  return new Promise((resolve) => {
    const off = services.permissions.onEvent((event) => {
      if (event.type !== 'asked' || event.request.sessionId !== sessionId) return
      off.dispose()
      resolve(event.request)
    })
  })
}

/** Asks in a session and answers the ask the user is shown. */
async function askAndAnswer(services: Services, projectId: string, sessionId: string, reply: Parameters<Services['permissions']['reply']>[1]): Promise<PendingPermission> {
  const shown = nextAsk(services, sessionId)
  const asked = askGitStatus(services, projectId, sessionId)
  const pending = await shown
  await services.permissions.reply(pending.id, reply)
  await asked
  return pending
}

describe('worktree approvals', () => {
  it('an approval remembered for the project in the main tree is honoured in a worktree, and revoking it in the worktree asks again in both', async () => {
    const services = testServices()
    const parent = services.projects.openFolder(gitRepo({ 'a.txt': 'a\n' }))
    const { project: tree } = await services.worktrees.create(parent, { name: 'feat' })

    await askAndAnswer(services, parent.id, 'ses_main', { reply: 'always', scope: 'persisted' })
    expect(services.storage.approvals.list(parent.id)).toEqual([{ permission: 'bash', pattern: 'git status*', action: 'allow' }])

    // No ask in the worktree's session: it resolves without anyone answering.
    await askGitStatus(services, tree.id, 'ses_tree')
    expect(services.permissions.pending()).toEqual([])
    expect(await services.permissions.approvals(tree.id)).toEqual([{ permission: 'bash', pattern: 'git status*', action: 'allow', scope: 'persisted' }])

    expect(await services.permissions.revoke(tree.id, { permission: 'bash', pattern: 'git status*' }, 'persisted')).toBe(true)
    expect(services.storage.approvals.list(parent.id)).toEqual([])
    expect(await services.permissions.approvals(parent.id)).toEqual([])
    for (const [projectId, sessionId] of [[parent.id, 'ses_main'], [tree.id, 'ses_tree']] as const) {
      expect((await askAndAnswer(services, projectId, sessionId, { reply: 'once' })).projectId).toBe(projectId)
    }
  })

  it('an approval given "always for this project" in a worktree covers the main tree and another worktree, and revoking it in the main tree ends it everywhere', async () => {
    const services = testServices()
    const parent = services.projects.openFolder(gitRepo({ 'a.txt': 'a\n' }))
    const { project: one } = await services.worktrees.create(parent, { name: 'one' })
    const { project: two } = await services.worktrees.create(parent, { name: 'two' })

    // An ask waiting in the main tree is answered by the approval given in the worktree.
    const shownInMain = nextAsk(services, 'ses_main')
    const waiting = askGitStatus(services, parent.id, 'ses_main')
    await shownInMain
    await askAndAnswer(services, one.id, 'ses_one', { reply: 'always', scope: 'project' })
    await waiting
    expect(services.permissions.pending()).toEqual([])

    await askGitStatus(services, two.id, 'ses_two')
    expect(services.permissions.pending()).toEqual([])
    expect((await services.permissions.approvals(parent.id)).map((a) => a.scope)).toEqual(['project'])

    expect(await services.permissions.revoke(parent.id, { permission: 'bash', pattern: 'git status*' }, 'project')).toBe(true)
    expect(await services.permissions.approvals(one.id)).toEqual([])
    await expect(askAndAnswer(services, one.id, 'ses_one', { reply: 'reject' })).rejects.toMatchObject({ name: 'PermissionRejected' })
  })
})
