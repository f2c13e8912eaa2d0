import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ProjectPresence } from '@shared/ipc/project'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { until } from '../../support/until'

describe('a tab whose folder goes away', () => {
  it('is reported missing when its folder is renamed away and present when it is renamed back', async () => {
    const services = testServices({ presenceIntervalMs: 100 })
    const parent = tempDir()
    const root = writeTree(join(parent, 'app'), { 'src/main.ts': 'export {}\n' })
    const events: ProjectPresence[] = []
    services.bus.on('project:presence', (payload) => events.push(payload))
    const project = services.projects.openFolder(root)
    // The tree is being watched, as when the UI shows it.
    await project.watchFiles().whenReady()

    renameSync(root, join(parent, 'app-moved'))
    await until(() => events.length >= 1, 'the missing event')
    expect(events).toEqual([{ projectId: project.id, root, state: 'missing' }])
    expect(services.projects.list()).toEqual([expect.objectContaining({ id: project.id, missing: true })])

    renameSync(join(parent, 'app-moved'), root)
    await until(() => events.length >= 2, 'the present event')
    expect(events.map((e) => e.state)).toEqual(['missing', 'present'])
    expect(services.projects.list()[0]?.missing).toBeUndefined()
  })

  it('is reported present again when another folder is put at its path', async () => {
    const services = testServices({ presenceIntervalMs: 100 })
    const parent = tempDir()
    const root = writeTree(join(parent, 'app'), { 'a.txt': 'a' })
    const events: string[] = []
    services.bus.on('project:presence', (payload) => events.push(payload.state))
    services.projects.openFolder(root)
    renameSync(root, join(parent, 'old'))
    await until(() => events.length >= 1, 'the missing event')
    mkdirSync(root)
    writeFileSync(join(root, 'b.txt'), 'b')
    await until(() => events.length >= 2, 'the present event')
    expect(events).toEqual(['missing', 'present'])
  })

  it('opens at the folder the user locates, in the same tab position, and closes the missing tab', async () => {
    const services = testServices({ presenceIntervalMs: 100 })
    const parent = tempDir()
    const first = writeTree(join(parent, 'first'), { 'a.txt': 'a' })
    const root = writeTree(join(parent, 'app'), { 'a.txt': 'a' })
    const last = writeTree(join(parent, 'last'), { 'a.txt': 'a' })
    services.projects.openFolder(first)
    const project = services.projects.openFolder(root)
    services.projects.openFolder(last)
    renameSync(root, join(parent, 'app-moved'))

    const located = await services.projects.locate(project.id, join(parent, 'app-moved'))

    expect(services.projects.list().map((p) => p.root)).toEqual([first, join(parent, 'app-moved'), last])
    expect(services.projects.find(project.id)).toBeUndefined()
    expect(located.root).toBe(join(parent, 'app-moved'))
  })

  it('refuses to locate a tab at a path that is not a folder, and keeps the tab', async () => {
    const services = testServices()
    const parent = tempDir()
    const root = writeTree(join(parent, 'app'), { 'a.txt': 'a' })
    const project = services.projects.openFolder(root)
    await expect(services.projects.locate(project.id, join(parent, 'nowhere'))).rejects.toThrow(/does not exist/)
    expect(services.projects.find(project.id)).toBe(project)
  })
})
