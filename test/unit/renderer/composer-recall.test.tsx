// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { HotaruBridge } from '@shared/ipc'
import { Composer } from '../../../src/renderer/src/features/chat/composer/Composer'
import { ChatContext } from '../../../src/renderer/src/stores/chat'
import { ChatController } from '../../../src/renderer/src/stores/chat-controller'
import { ProjectStoreContext, projectStoreFor } from '../../../src/renderer/src/stores/project'

afterEach(cleanup)

/** A bridge that records prompts; no layout is saved, every other method answers an empty list, every subscription does nothing. */
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
            if (`${name}.${method}` === 'layout.get') return Promise.resolve({ ok: true, value: null })
            return Promise.resolve({ ok: true, value: [] })
          }
        },
      },
    )
  return new Proxy({}, { get: (_target, name: string) => domain(name) }) as HotaruBridge
}

describe('the composer', () => {
  it('brings the last message back with ArrowUp in an empty input', async () => {
    const prompts: string[] = []
    const bridge = promptBridge(prompts)
    const chat = new ChatController(bridge, 'p_recall')
    chat.store.setState({ activeSessionId: 'ses_1' })
    await chat.send('explain the failing build')
    render(
      <ProjectStoreContext.Provider value={projectStoreFor(bridge, 'p_recall')}>
        <ChatContext.Provider value={chat}>
          <Composer sessionId="ses_1" />
        </ChatContext.Provider>
      </ProjectStoreContext.Provider>,
    )
    const input = screen.getByRole('textbox') as HTMLTextAreaElement
    expect(input.value).toBe('')
    fireEvent.keyDown(input, { key: 'ArrowUp' })
    expect(input.value).toBe('explain the failing build')
    // With text in the input, ArrowUp moves the caret as usual and recalls nothing.
    fireEvent.change(input, { target: { value: 'and fix it' } })
    fireEvent.keyDown(input, { key: 'ArrowUp' })
    expect(input.value).toBe('and fix it')
    chat.dispose()
  })
})
