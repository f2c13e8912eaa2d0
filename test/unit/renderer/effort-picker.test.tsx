// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { HotaruBridge } from '@shared/ipc'
import type { ModelSummary } from '@shared/ipc/agent'
import type { Session } from '@shared/schema/session'
import { EffortPicker } from '../../../src/renderer/src/features/chat/composer/Pickers'
import { ChatContext } from '../../../src/renderer/src/stores/chat'
import { ChatController } from '../../../src/renderer/src/stores/chat-controller'
import { ProjectStoreContext, projectStoreFor } from '../../../src/renderer/src/stores/project'
import { memoryStorage } from './memory-storage'

const session = (id: string, model: string, extra: Partial<Session> = {}): Session => ({
  id,
  projectId: 'p1',
  parentId: null,
  title: 'New session',
  agent: 'build',
  model,
  createdAt: 1,
  updatedAt: 1,
  ...extra,
})

const summary = (id: string, name: string, extra: Partial<ModelSummary>): ModelSummary => ({
  id,
  name,
  providerId: id.split('/')[0] ?? '',
  context: 1_000_000,
  output: 128_000,
  reasoning: true,
  images: true,
  efforts: [],
  defaultEffort: 'off',
  effortToggle: false,
  ...extra,
})

const MODELS: ModelSummary[] = [
  summary('anthropic/claude-sonnet-5-5', 'Claude Sonnet 5.5', { efforts: ['off', 'low', 'medium', 'high', 'max'], defaultEffort: 'high' }),
  summary('anthropic/claude-opus-5-5', 'Claude Opus 5.5', { efforts: ['low', 'medium', 'high', 'max'], defaultEffort: 'medium' }),
  summary('openai/gpt-4.1', 'GPT-4.1', { reasoning: false }),
]

/** A bridge that records calls; `agent.prompt` lands, everything else answers an empty list. */
function recordingBridge() {
  const calls: Array<{ method: string; input: unknown }> = []
  const domain = (name: string) =>
    new Proxy(
      {},
      {
        get: (_target, method: string) => {
          if (method.startsWith('on')) return () => () => undefined
          return (input: unknown) => {
            calls.push({ method: `${name}.${method}`, input })
            if (`${name}.${method}` === 'agent.prompt') return Promise.resolve({ ok: true, value: { queued: false, messageId: 'msg_1' } })
            return Promise.resolve({ ok: true, value: [] })
          }
        },
      },
    )
  return { bridge: new Proxy({}, { get: (_target, name: string) => domain(name) }) as HotaruBridge, calls }
}

function setup(sessions: Session[], projectId: string) {
  const { bridge, calls } = recordingBridge()
  const chat = new ChatController(bridge, projectId)
  chat.store.setState({ models: MODELS, sessions: Object.fromEntries(sessions.map((s) => [s.id, s])) })
  const show = (sessionId: string) =>
    render(
      <ProjectStoreContext.Provider value={projectStoreFor(bridge, projectId)}>
        <ChatContext.Provider value={chat}>
          <EffortPicker sessionId={sessionId} />
        </ChatContext.Provider>
      </ProjectStoreContext.Provider>,
    )
  return { chat, calls, show }
}

const picker = () => screen.getByTestId('effort-picker') as HTMLSelectElement
const options = () => [...picker().options].map((o) => o.textContent)

beforeEach(() => {
  Object.defineProperty(globalThis, 'localStorage', { value: memoryStorage(), configurable: true })
})
afterEach(cleanup)

describe('the effort picker', () => {
  it('offers only the levels the model takes, and the pick goes with the next message of that session only', async () => {
    const { chat, calls, show } = setup([session('ses_1', 'anthropic/claude-sonnet-5-5'), session('ses_2', 'anthropic/claude-sonnet-5-5')], 'p1')
    show('ses_1')
    expect(options()).toEqual(['Default (High effort)', 'Thinking off', 'Low effort', 'Medium effort', 'High effort', 'Max effort'])
    fireEvent.change(picker(), { target: { value: 'low' } })
    expect(picker().value).toBe('low')

    chat.store.setState({ activeSessionId: 'ses_1' })
    await chat.send('think a little')
    chat.store.setState({ activeSessionId: 'ses_2' })
    await chat.send('as you like')
    const prompts = calls.filter((c) => c.method === 'agent.prompt').map((c) => c.input)
    expect(prompts).toEqual([
      { sessionId: 'ses_1', text: 'think a little', effort: 'low' },
      { sessionId: 'ses_2', text: 'as you like' },
    ])
    chat.dispose()
  })

  it('shows the effort a session remembers when it is opened again', () => {
    const { chat, show } = setup([session('ses_3', 'anthropic/claude-sonnet-5-5', { effort: 'max' })], 'p2')
    show('ses_3')
    expect(picker().value).toBe('max')
    chat.dispose()
  })

  it('leaves off where thinking is always on, and is disabled with the reason for a model without reasoning', () => {
    const { chat, show } = setup([session('ses_4', 'anthropic/claude-opus-5-5'), session('ses_5', 'openai/gpt-4.1')], 'p3')
    show('ses_4')
    expect(options()).toEqual(['Default (Medium effort)', 'Low effort', 'Medium effort', 'High effort', 'Max effort'])
    cleanup()
    show('ses_5')
    expect(picker().disabled).toBe(true)
    expect(picker().title).toBe('GPT-4.1 does not reason')
    chat.dispose()
  })
})
