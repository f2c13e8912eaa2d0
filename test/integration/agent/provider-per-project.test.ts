import { afterEach, describe, expect, it } from 'vitest'
import { closeIpcHarnesses, ipcHarness } from '../../support/ipc-harness'
import { tempDir, writeTree } from '../../support/temp'

afterEach(closeIpcHarnesses)

/** The user's own words in the last user message a request carried (the app's turn context ahead of them left out). */
function promptOf(body: unknown): string {
  const messages = (body as { messages: { role: string; content: string | { type: string; text?: string }[] }[] }).messages
  const last = messages.filter((m) => m.role === 'user').at(-1)
  if (!last) return ''
  if (typeof last.content === 'string') return last.content
  return last.content.map((c) => c.text ?? '').filter((text) => !text.startsWith('<system-reminder>')).join('')
}

describe('provider settings belong to the project whose turn runs', () => {
  it('two projects with different provider config streaming at the same time each send their own', async () => {
    const { fake, services, call, next, events } = await ipcHarness()
    const projects = await Promise.all(
      ['alpha', 'beta'].map(async (name) => {
        const root = writeTree(tempDir(`hotaru-${name}-`), {
          'hotaru.json': JSON.stringify({ provider: { anthropic: { headers: { 'x-project': name } } } }),
        })
        services.trust.trust(root)
        const project = await call<{ id: string }>('project.open', { path: root })
        const session = await call<{ id: string }>('session.create', { projectId: project.id })
        return { name, session }
      }),
    )
    // Slow drips, so the second turn starts while the first one still streams.
    fake.enqueue({ text: ['one ', 'two ', 'three ', 'four'], dripMs: 150 }, { text: ['five ', 'six ', 'seven ', 'eight'], dripMs: 150 })
    for (const { name, session } of projects) await call('agent.prompt', { sessionId: session.id, text: `from ${name}` })
    for (const { session } of projects) {
      const ended = await next('agent:turnEnded', (p) => p.sessionId === session.id)
      expect(ended.status).toBe('completed')
    }

    // Both were in flight together: the second request arrived before the first turn ended.
    const firstEnded = events.findIndex((e) => e.channel === 'agent:turnEnded')
    const deltasBefore = new Set(
      events.slice(0, firstEnded).filter((e) => e.channel === 'session:delta').map((e) => (e.envelope.payload as { sessionId: string }).sessionId),
    )
    expect(deltasBefore.size).toBe(2)
    expect(fake.requests).toHaveLength(2)
    for (const request of fake.requests) {
      const project = promptOf(request.body).replace('from ', '')
      expect(['alpha', 'beta']).toContain(project)
      expect(request.headers['x-project']).toBe(project)
    }
  })
})
