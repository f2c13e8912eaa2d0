import { describe, expect, it } from 'vitest'
import type { PartOf } from '@shared/schema/session'
import { ContextManager } from '../../../src/main/core/context'
import { ProviderRegistry } from '../../../src/main/core/provider'
import { SessionStore } from '../../../src/main/core/session/store'
import { testServices } from '../../support/services'
import { tempDir } from '../../support/temp'

function setup() {
  const services = testServices()
  const project = services.projects.openFolder(tempDir())
  const store = new SessionStore(services.storage.sessions, services.bus)
  const session = store.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-5' })
  const logs: string[] = []
  // No credentials: nothing here may call a provider.
  const context = new ContextManager({ store, providers: new ProviderRegistry({ env: {} }), log: (m) => logs.push(m), bus: services.bus })
  return { store, session, context, logs }
}

describe('context manager', () => {
  it('repairs what a crash left before the request and logs the repair', async () => {
    const { store, session, context, logs } = setup()
    const sessionId = session.id
    const user = store.addMessage({ sessionId, role: 'user', agent: 'build', model: session.model, completedAt: 1 })
    store.addPart<PartOf<'text'>>({ sessionId, messageId: user.id, type: 'text', text: 'go' })
    const open = store.addMessage({ sessionId, role: 'assistant', agent: 'build', model: session.model })
    store.addPart<PartOf<'tool'>>({ sessionId, messageId: open.id, type: 'tool', callId: 'c1', tool: 'read', state: { status: 'running', input: {} } })
    const prepared = await context.beforeRequest({ sessionId, model: session.model })
    expect(prepared.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
    expect(prepared.action).toBe('ok')
    expect(logs.join('\n')).toMatch(/repaired the transcript: answered 1 unfinished tool call\(s\) as interrupted/)
    context.dispose()
  })

  it('reports used and usable tokens for the context meter', () => {
    const { store, session, context } = setup()
    const user = store.addMessage({ sessionId: session.id, role: 'user', agent: 'build', model: session.model, completedAt: 1 })
    store.addPart<PartOf<'text'>>({ sessionId: session.id, messageId: user.id, type: 'text', text: 'x'.repeat(4_000) })
    const status = context.status({ sessionId: session.id, model: session.model, system: ['y'.repeat(400)] })
    expect(status).toMatchObject({ source: 'estimate', budget: { context: 200_000, reserve: 20_000, usable: 180_000 }, compactAt: 180_000 })
    expect(status.tokens).toBeGreaterThan(1_100)
    expect(status.tokens).toBeLessThan(1_150)
    context.dispose()
  })

  it('refuses a manual compaction while a turn runs, and when there is nothing to summarize', async () => {
    const services = testServices()
    const project = services.projects.openFolder(tempDir())
    const store = new SessionStore(services.storage.sessions, services.bus)
    const session = store.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-5' })
    const providers = new ProviderRegistry({ env: {} })
    const busy = new ContextManager({ store, providers, isBusy: () => true })
    await expect(busy.compact(session.id)).rejects.toMatchObject({ name: 'CompactionBusy' })
    const idle = new ContextManager({ store, providers })
    await expect(idle.compact(session.id)).rejects.toMatchObject({ name: 'NothingToCompact' })
  })
})
