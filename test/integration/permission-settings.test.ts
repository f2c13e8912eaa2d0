import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { IpcResult } from '@shared/errors'
import type { RuleInEffect } from '@shared/schema/permission-rules'
import { Connection, createAppRouter } from '../../src/main/ipc'
import { loadConfig } from '../../src/main/core/config'
import { ruleFile, setRule } from '../../src/main/core/permission/overview'
import { rulesInForce } from '../../src/main/core/permission/policy'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'

/** The rules Settings lists for an agent, from the config layers alone (no extensions in these folders). */
async function rulesInEffect(projectDir: string, agent: string, env: NodeJS.ProcessEnv, trusted: boolean): Promise<RuleInEffect[]> {
  const loaded = await loadConfig({ projectDir, env, trusted })
  return rulesInForce(agent, { layers: loaded.permissionLayers, floors: loaded.floors, agentFiles: [], tools: [] })
}

describe('permission settings', () => {
  it('lists rules with their layer and writes user/project rules back with comments kept', async () => {
    const home = tempDir()
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') }
    mkdirSync(join(home, '.config', 'hotaru'), { recursive: true })
    writeFileSync(join(home, '.config', 'hotaru', 'hotaru.jsonc'), '{\n  // mine\n  "permission": { "bash": "ask" }\n}\n')
    const root = writeTree(tempDir(), { '.hotaru/hotaru.json': '{ "permission": { "edit": { "src/*": "allow" } } }\n' })
    // Until the folder is trusted, its own allow rules are listed as not applying.
    expect((await rulesInEffect(root, 'build', env, false)).filter((r) => r.layer === 'project').map((r) => r.untrusted)).toEqual([true])
    const rules = await rulesInEffect(root, 'build', env, true)
    expect(rules.find((r) => r.layer === 'agent' && r.permission === 'bash')).toBeTruthy()
    expect(rules.filter((r) => r.layer === 'user')).toEqual([{ permission: 'bash', pattern: '*', action: 'ask', layer: 'user', file: join(home, '.config', 'hotaru', 'hotaru.jsonc') }])
    expect(rules.filter((r) => r.layer === 'project').map((r) => `${r.permission} ${r.pattern} ${r.action}`)).toEqual(['edit src/* allow'])

    const userFile = ruleFile('user', root, env)
    setRule(userFile, 'bash', 'git status*', 'allow')
    const text = readFileSync(userFile, 'utf8')
    expect(text).toContain('// mine')
    expect(JSON.parse(text.replace('// mine', ''))).toEqual({ permission: { bash: { '*': 'ask', 'git status*': 'allow' } } })
    setRule(userFile, 'bash', 'git status*', null)
    setRule(userFile, 'bash', '*', null)
    expect(JSON.parse(readFileSync(userFile, 'utf8').replace('// mine', ''))).toEqual({ permission: {} })
    const projectFile = ruleFile('project', root, env)
    expect(projectFile).toBe(join(root, '.hotaru', 'hotaru.json'))
    setRule(projectFile, 'edit', 'src/*', 'deny')
    expect((await rulesInEffect(root, 'build', env, true)).filter((r) => r.layer === 'project').map((r) => r.action)).toEqual(['deny'])
  })

  it('revokes a remembered approval so the next call asks again', async () => {
    const services = testServices()
    const root = writeTree(tempDir(), { 'a.txt': '' })
    const project = services.projects.openFolder(root)
    services.storage.approvals.add(project.id, { permission: 'bash', pattern: 'git *', action: 'allow' })
    expect(await services.permissions.approvals(project.id)).toEqual([{ permission: 'bash', pattern: 'git *', action: 'allow', scope: 'persisted' }])
    expect(await services.permissions.revoke(project.id, { permission: 'bash', pattern: 'git *' }, 'persisted')).toBe(true)
    expect(await services.permissions.approvals(project.id)).toEqual([])
    expect(services.storage.approvals.list(project.id)).toEqual([])
  })

  it('writes Settings changes to the right layer: an untrusted folder’s own rules may only narrow, the sandbox switch goes to the user config', async () => {
    const home = tempDir()
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') }
    const services = testServices({ env })
    const router = createAppRouter(services)
    const conn = new Connection('t', () => undefined)
    const call = async <T>(channel: string, input: unknown) => (await router.handle(conn, channel, input)) as IpcResult<T>
    const root = writeTree(tempDir(), { 'a.txt': '' })
    const projectId = services.projects.openFolder(root).id
    const projectFile = join(root, '.hotaru', 'hotaru.jsonc')
    const userFile = join(home, '.config', 'hotaru', 'hotaru.jsonc')

    expect(await call('permission.rules', { projectId })).toMatchObject({ ok: true, value: { trusted: false, files: { user: userFile, project: projectFile } } })
    // Restricted: an allow in the folder's own config would never apply, so it is refused and nothing is written.
    const refused = await call('permission.setRule', { projectId, layer: 'project', permission: 'bash', pattern: 'npm test', action: 'allow' })
    expect(refused).toMatchObject({ ok: false, error: { name: 'InvalidPayload', data: { message: expect.stringContaining('not trusted') as unknown } } })
    expect(() => readFileSync(projectFile, 'utf8')).toThrow(/ENOENT/)
    // Narrowing is fine, and the user's own layer takes an allow.
    expect(await call('permission.setRule', { projectId, layer: 'project', permission: 'bash', pattern: 'rm *', action: 'deny' })).toEqual({ ok: true, value: { file: projectFile } })
    expect(await call('permission.setRule', { projectId, layer: 'user', permission: 'bash', pattern: 'npm test', action: 'allow' })).toEqual({ ok: true, value: { file: userFile } })
    services.trust.trust(root)
    expect(await call('permission.setRule', { projectId, layer: 'project', permission: 'bash', pattern: 'npm test', action: 'allow' })).toMatchObject({ ok: true })
    expect(JSON.parse(readFileSync(projectFile, 'utf8'))).toEqual({ permission: { bash: { 'rm *': 'deny', 'npm test': 'allow' } } })

    const before = await call<{ enabled: boolean; user: { enabled: boolean; file: string } }>('sandbox.status', { projectId })
    expect(before).toMatchObject({ ok: true, value: { enabled: false, user: { enabled: false, file: userFile } } })
    expect(await call('sandbox.setEnabled', { projectId, enabled: true })).toMatchObject({ ok: true, value: { enabled: true, user: { enabled: true } } })
    expect(JSON.parse(readFileSync(userFile, 'utf8'))).toEqual({ permission: { bash: { 'npm test': 'allow' } }, sandbox: { enabled: true } })
    expect(await call('sandbox.setEnabled', { projectId, enabled: false })).toMatchObject({ ok: true, value: { enabled: false, user: { enabled: false } } })
    // A project may switch it on for itself; the user's switch cannot loosen that.
    writeFileSync(projectFile, JSON.stringify({ sandbox: { enabled: true } }))
    expect(await call('sandbox.status', { projectId })).toMatchObject({ ok: true, value: { enabled: true, user: { enabled: false } } })
  })
})
