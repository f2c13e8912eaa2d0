// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { createStore } from 'zustand/vanilla'
import type { HotaruBridge } from '@shared/ipc'
import type { Message } from '@shared/schema/session'
import { MessageRow } from '../../../src/renderer/src/features/chat/messages/MessageRow'
import { ChatContext } from '../../../src/renderer/src/stores/chat'
import { ChatController } from '../../../src/renderer/src/stores/chat-controller'
import { transcriptFrom } from '../../../src/renderer/src/stores/chat-model'
import { type ProjectStore, ProjectStoreContext } from '../../../src/renderer/src/stores/project'

afterEach(cleanup)

/** A bridge that records prompts; every other method answers an empty list, every subscription does nothing. */
function promptBridge(prompts: string[]): HotaruBridge {
  const domain = (name: string) =>
    new Proxy(
      {},
      {
        get: (_target, method: string) => {
          if (method.startsWith('on')) return () => () => undefined
          return (input: { text?: string }) => {
            if (`${name}.${method}` === 'agent.prompt') {
              prompts.push(input.text ?? '')
              return Promise.resolve({ ok: true, value: { queued: false, messageId: 'msg_u' } })
            }
            return Promise.resolve({ ok: true, value: [] })
          }
        },
      },
    )
  return new Proxy({}, { get: (_target, name: string) => domain(name) }) as HotaruBridge
}

const failed: Message = {
  id: 'msg_1',
  sessionId: 'ses_1',
  role: 'assistant',
  agent: 'build',
  model: 'openai/gpt-4.1',
  createdAt: 1,
  completedAt: 2,
  error: { name: 'ProviderConnection', data: { message: 'openai: fetch failed: connect ECONNREFUSED 127.0.0.1:9', retryable: true } },
}

describe('a turn the provider failed', () => {
  it('offers Retry, which sends the last message again', async () => {
    const prompts: string[] = []
    const chat = new ChatController(promptBridge(prompts), 'p_retry')
    chat.store.setState({ activeSessionId: 'ses_1' })
    await chat.send('add a test for the parser')
    chat.store.setState((s) => ({ transcripts: { ...s.transcripts, ses_1: transcriptFrom([{ info: failed, parts: [] }]) } }))
    const project = createStore(() => ({ projectId: 'p_retry', bridge: null })) as unknown as ProjectStore
    render(
      <ProjectStoreContext.Provider value={project}>
        <ChatContext.Provider value={chat}>
          <MessageRow sessionId="ses_1" messageId="msg_1" root="/project" recent />
        </ChatContext.Provider>
      </ProjectStoreContext.Provider>,
    )

    expect(chat.lastPrompt('ses_1')).toBe('add a test for the parser')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    })
    expect(prompts).toEqual(['add a test for the parser', 'add a test for the parser'])
    chat.dispose()
  })
})
