import { afterEach, describe, expect, it } from 'vitest'
import type { PartOf } from '@shared/schema/session'
import { TranscriptCache } from '../../../src/main/core/context/transcript-cache'
import { SessionStore } from '../../../src/main/core/session/store'
import { testServices } from '../../support/services'
import { tempDir } from '../../support/temp'

// This file's own stores batch text writes on a timer: they are flushed and stopped before the services (and
// their database) close, so no timer fires into a closed database after the test.
const stores: SessionStore[] = []
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose()
})

function setup() {
  const services = testServices()
  const project = services.projects.openFolder(tempDir())
  const store = new SessionStore(services.storage.sessions, services.bus)
  stores.push(store)
  const session = store.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-5' })
  let reads = 0
  let now = 0
  const cache = new TranscriptCache(services.bus, (id) => (reads++, store.messages(id)), { now: () => now, maxAgeMs: 1_000, maxSessions: 2 })
  return { services, store, session, cache, reads: () => reads, advance: (ms: number) => (now += ms), projectId: project.id }
}

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

describe('transcript cache', () => {
  it('follows the store through its events without reading again', () => {
    const { store, session, cache, reads } = setup()
    const sessionId = session.id
    expect(cache.messages(sessionId)).toEqual([])
    const user = store.addMessage({ sessionId, role: 'user', agent: 'build', model: session.model, completedAt: 1 })
    store.addPart<PartOf<'text'>>({ sessionId, messageId: user.id, type: 'text', text: 'hello' })
    const answer = store.addMessage({ sessionId, role: 'assistant', agent: 'build', model: session.model })
    const text = store.addPart<PartOf<'text'>>({ sessionId, messageId: answer.id, type: 'text', text: '' })
    store.appendText(text.id, 'Hi ')
    store.appendText(text.id, 'there')
    const retried = store.addPart<PartOf<'text'>>({ sessionId, messageId: answer.id, type: 'text', text: 'dropped attempt' })
    store.removePart(retried)
    const tool = store.addPart<PartOf<'tool'>>({ sessionId, messageId: answer.id, type: 'tool', callId: 'c1', tool: 'read', state: { status: 'running', input: {} } })
    store.updatePart({ ...tool, state: { ...tool.state, status: 'completed', output: 'content', compactedAt: 5 } })
    store.updateMessage({ ...answer, completedAt: 2 })
    // A message created with an earlier timestamp sorts where the store puts it.
    store.addMessage({ sessionId, role: 'user', agent: 'build', model: session.model, createdAt: 0, completedAt: 0 })
    expect(plain(cache.messages(sessionId))).toEqual(plain(store.messages(sessionId)))
    store.truncateFrom(sessionId, answer.id)
    expect(plain(cache.messages(sessionId))).toEqual(plain(store.messages(sessionId)))
    expect(reads()).toBe(1)
  })

  it('hands out snapshots that later writes do not change', () => {
    const { store, session, cache } = setup()
    const user = store.addMessage({ sessionId: session.id, role: 'user', agent: 'build', model: session.model })
    const part = store.addPart<PartOf<'text'>>({ sessionId: session.id, messageId: user.id, type: 'text', text: 'a' })
    const before = cache.messages(session.id)
    store.appendText(part.id, 'b')
    store.addMessage({ sessionId: session.id, role: 'assistant', agent: 'build', model: session.model })
    expect(before).toHaveLength(1)
    expect(before[0]?.parts[0]).toMatchObject({ text: 'a' })
    expect(cache.messages(session.id)[0]?.parts[0]).toMatchObject({ text: 'ab' })
  })

  it('reads again when an entry is old, after an event that is no exact change, and beyond its size', () => {
    const { services, store, session, cache, reads, advance, projectId } = setup()
    cache.messages(session.id)
    advance(1_001)
    cache.messages(session.id)
    expect(reads()).toBe(2)
    services.bus.publish('session:deleted', { sessionId: session.id, seq: 99 }, projectId)
    cache.messages(session.id)
    expect(reads()).toBe(3)
    services.bus.publish('session:status', { sessionId: session.id, status: { type: 'busy' } }, projectId)
    cache.messages(session.id)
    expect(reads()).toBe(3)
    const others = [1, 2].map(() => store.create({ projectId, agent: 'build', model: session.model }))
    for (const other of others) cache.messages(other.id)
    cache.messages(session.id)
    expect(reads()).toBe(6)
    cache.dispose()
  })
})
