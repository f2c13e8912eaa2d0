// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { HotaruBridge } from '@shared/ipc'
import type { Message } from '@shared/schema/session'
import { MessageList } from '../../../src/renderer/src/features/chat/messages/MessageList'
import { ChatContext } from '../../../src/renderer/src/stores/chat'
import { ChatController } from '../../../src/renderer/src/stores/chat-controller'
import { transcriptFrom } from '../../../src/renderer/src/stores/chat-model'
import { ProjectStoreContext, projectStoreFor } from '../../../src/renderer/src/stores/project'

afterEach(cleanup)

/** Every method answers an empty list (a prompt lands), every subscription does nothing. */
function quietBridge(): HotaruBridge {
  const domain = (name: string) =>
    new Proxy(
      {},
      {
        get: (_target, method: string) => {
          if (method.startsWith('on')) return () => () => undefined
          if (`${name}.${method}` === 'agent.prompt') return () => Promise.resolve({ ok: true, value: { queued: false, messageId: 'msg_u' } })
          return () => Promise.resolve({ ok: true, value: [] })
        },
      },
    )
  return new Proxy({}, { get: (_target, name: string) => domain(name) }) as HotaruBridge
}

/** jsdom lays nothing out: the list gets a browser's geometry, a long transcript in a short viewport. */
function giveGeometry(el: HTMLElement): void {
  let top = 0
  Object.defineProperty(el, 'scrollHeight', { get: () => 3000 })
  Object.defineProperty(el, 'clientHeight', { get: () => 400 })
  Object.defineProperty(el, 'scrollTop', {
    get: () => top,
    set: (value: number) => {
      const next = Math.max(0, Math.min(value, 2600))
      if (next === top) return
      top = next
      el.dispatchEvent(new Event('scroll'))
    },
  })
}

class NoLayoutObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

const answer: Message = { id: 'msg_1', sessionId: 'ses_1', role: 'assistant', agent: 'build', model: 'openai/gpt-4.1', createdAt: 1, completedAt: 2 }

describe('the message list', () => {
  it('shows a message the user sends while scrolled up, and follows again', async () => {
    globalThis.ResizeObserver = NoLayoutObserver
    const bridge = quietBridge()
    const chat = new ChatController(bridge, 'p_list')
    chat.store.setState({ activeSessionId: 'ses_1', transcripts: { ses_1: transcriptFrom([{ info: answer, parts: [] }]) } })
    render(
      <ProjectStoreContext.Provider value={projectStoreFor(bridge, 'p_list')}>
        <ChatContext.Provider value={chat}>
          <MessageList sessionId="ses_1" />
        </ChatContext.Provider>
      </ProjectStoreContext.Provider>,
    )
    const list = screen.getByTestId('message-list')
    giveGeometry(list)
    fireEvent.wheel(list, { deltaY: -200 })
    act(() => {
      list.scrollTop = 500
    })
    expect(screen.getByRole('button', { name: 'Scroll to the latest message' })).toBeTruthy()

    await act(async () => {
      await chat.send('now run the tests')
    })
    expect(list.scrollTop).toBe(2600)
    expect(screen.queryByRole('button', { name: 'Scroll to the latest message' })).toBeNull()
    chat.dispose()
  })
})
