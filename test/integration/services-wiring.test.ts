import { describe, expect, it } from 'vitest'
import type { BusEvent } from '../../src/main/core/bus/bus'
import type { Services } from '../../src/main/core/services'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'

/** Every listener the composition root's attachments may hold, per source. */
function listeners(services: Services): Record<string, number> {
  return {
    projectOpened: services.projects.listenerCount,
    trust: services.trust.listenerCount,
    bus: services.bus.listenerCount,
    permissions: services.permissions.listenerCount,
    questions: services.questions.listenerCount,
  }
}

describe('the composition root attaches each module and disposes every attachment', () => {
  it('asks reach the bus and end with their project; a trust decision reaches the projects below the folder', async () => {
    const services = testServices()
    const events: BusEvent[] = []
    services.bus.subscribe((event) => events.push(event))
    const root = writeTree(tempDir(), { 'a.txt': '' })
    const project = services.projects.openFolder(root)
    const ask = services.permissions.ask({
      sessionId: 'ses_1',
      projectId: project.id,
      permission: 'bash',
      patterns: ['make'],
      always: ['make'],
      title: 'make',
      ruleset: [{ permission: 'bash', pattern: '*', action: 'ask' }],
    })
    const settled = ask.then(
      () => 'allowed',
      (error: unknown) => (error as Error).message,
    )
    await expect.poll(() => events.some((event) => event.channel === 'permission:asked')).toBe(true)

    services.trust.trust(root)
    const trustChanged = events.find((event) => event.channel === 'trust:changed')
    expect(trustChanged?.envelope.payload).toMatchObject({ trusted: true, projectIds: [project.id] })
    expect((await services.configs.of(project).load()).trust.trusted).toBe(true)

    await services.projects.close(project.id)
    expect(await settled).toContain('the project was closed')
    expect(services.permissions.pending({ projectId: project.id })).toEqual([])
  })

  it('leaves no listener behind once disposed, so a project opening or a trust decision triggers nothing', async () => {
    const services = testServices()
    const before = listeners(services)
    // configs, lsp and mcp follow trust; permissions, questions, lsp, mcp and checkpoints (a UI host) follow opens.
    expect(before.trust).toBe(3)
    expect(before.projectOpened).toBeGreaterThanOrEqual(5)
    expect(before.permissions).toBe(1)
    expect(before.questions).toBe(1)
    expect(before.bus).toBeGreaterThanOrEqual(1)

    await services.dispose()
    expect(listeners(services)).toEqual({ projectOpened: 0, trust: 0, bus: 0, permissions: 0, questions: 0 })
  })
})
