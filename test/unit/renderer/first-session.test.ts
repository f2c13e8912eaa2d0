import { beforeEach, describe, expect, it } from 'vitest'
import type { HotaruBridge } from '@shared/ipc'
import type { Session } from '@shared/schema/session'
import { ChatController } from '../../../src/renderer/src/stores/chat-controller'
import { draftOf, setDraft } from '../../../src/renderer/src/stores/drafts'
import { memoryStorage } from './memory-storage'

const session = (id: string): Session => ({
  id,
  projectId: 'wt',
  parentId: null,
  title: 'New session',
  agent: 'build',
  model: 'anthropic/claude-sonnet-4-6',
  createdAt: 1,
  updatedAt: 1,
})

/**
 * A bridge whose `session.create` answers only when the test says so; every other method answers
 * an empty list, every subscription does nothing. Records the calls.
 */
function slowCreateBridge() {
  const calls: Array<{ method: string; input: unknown }> = []
  const creations: Array<(value: Session) => void> = []
  const domain = (name: string) =>
    new Proxy(
      {},
      {
        get: (_target, method: string) => {
          if (method.startsWith('on')) return () => () => undefined
          return (input: unknown) => {
            calls.push({ method: `${name}.${method}`, input })
            if (`${name}.${method}` === 'session.create') return new Promise((resolve) => creations.push((value) => resolve({ ok: true, value })))
            if (`${name}.${method}` === 'agent.prompt') return Promise.resolve({ ok: true, value: { queued: false, messageId: 'msg_1' } })
            return Promise.resolve({ ok: true, value: [] })
          }
        },
      },
    )
  const bridge = new Proxy({}, { get: (_target, name: string) => domain(name) }) as HotaruBridge
  return { bridge, calls, creations }
}

describe('the first session of a chat', () => {
  beforeEach(() => {
    Object.defineProperty(globalThis, 'localStorage', { value: memoryStorage(), configurable: true })
  })

  it('a message sent while the session is being created goes to that session; no second one is made', async () => {
    const { bridge, calls, creations } = slowCreateBridge()
    const chat = new ChatController(bridge, 'wt')
    const created = chat.newSession()
    const sent = chat.send('COPY: write a todo list')
    await Promise.resolve()
    creations.forEach((resolve, i) => resolve(session(`ses_${i + 1}`)))
    expect(await created).toBe('ses_1')
    await sent
    expect(calls.filter((c) => c.method === 'session.create')).toHaveLength(1)
    expect(calls.filter((c) => c.method === 'agent.prompt').map((c) => c.input)).toEqual([{ sessionId: 'ses_1', text: 'COPY: write a todo list' }])
    expect(chat.store.getState().activeSessionId).toBe('ses_1')
    chat.dispose()
  })

  it('text typed before the session existed is the new session’s draft', async () => {
    const { bridge, creations } = slowCreateBridge()
    const chat = new ChatController(bridge, 'wt2')
    setDraft('wt2', null, 'typed while it was created')
    const created = chat.newSession()
    await Promise.resolve()
    creations[0]?.(session('ses_2'))
    await created
    expect(draftOf('wt2', 'ses_2')).toBe('typed while it was created')
    expect(draftOf('wt2', null)).toBe('')
    chat.dispose()
  })
})
