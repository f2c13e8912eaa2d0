// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { Message } from '@shared/schema/session'
import { createStore } from 'zustand/vanilla'
import { MessageRow } from '../../../src/renderer/src/features/chat/messages/MessageRow'
import { ChatContext, type ChatController, type ChatState } from '../../../src/renderer/src/stores/chat'
import { transcriptFrom } from '../../../src/renderer/src/stores/chat-model'
import { type ProjectStore, ProjectStoreContext } from '../../../src/renderer/src/stores/project'

afterEach(cleanup)

function showTurnError(error: NonNullable<Message['error']>): void {
  const message: Message = {
    id: 'msg_1',
    sessionId: 'ses_1',
    role: 'assistant',
    agent: 'build',
    model: 'openai/gpt-4.1',
    createdAt: 1,
    completedAt: 2,
    error,
  }
  // The row reads only its transcript from the chat it renders in.
  const store = createStore(() => ({ transcripts: { ses_1: transcriptFrom([{ info: message, parts: [] }]) }, statuses: {} }) as unknown as ChatState)
  // Nothing was sent from this window: no Retry to offer.
  const chat = { store, lastPrompt: () => undefined } as unknown as ChatController
  const project = createStore(() => ({ projectId: 'prj_1', bridge: null })) as unknown as ProjectStore
  render(
    <ProjectStoreContext.Provider value={project}>
      <ChatContext.Provider value={chat}>
        <MessageRow sessionId="ses_1" messageId="msg_1" root="/project" recent />
      </ChatContext.Provider>
    </ProjectStoreContext.Provider>,
  )
}

describe('the error that ended a turn', () => {
  it('shows a billing failure in its own words: which provider refused and where to add credits', () => {
    const message =
      'OpenAI refused the request for billing: 429 You exceeded your current quota. The account has no credit or quota left: ' +
      'add credits or check your plan and billing (Billing in the OpenAI platform settings), then send the message again.'
    showTurnError({ name: 'ProviderBilling', data: { message, providerId: 'openai', status: 429, retryable: false } })
    expect(screen.getByRole('alert').textContent).toBe(message)
  })

  it('says what went wrong in plain words and keeps the cause behind Details', () => {
    showTurnError({ name: 'ProviderServer', data: { message: 'openai: 500 boom', providerId: 'openai', retryable: true } })
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('OpenAI had a problem on its side. Retry in a moment.')
    expect(screen.getByText('Details').tagName).toBe('SUMMARY')
    expect(screen.getByTestId('error-details').textContent).toBe('ProviderServer: openai: 500 boom')
    // Nothing was sent from this window, so there is no prompt to send again: Resume asks the model to carry on.
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Resume' })).toBeTruthy()
  })

  it('tells a provider that cannot be reached from a raw connection error', () => {
    showTurnError({
      name: 'ProviderConnection',
      data: { message: 'anthropic: fetch failed: connect ECONNREFUSED 127.0.0.1:9', providerId: 'anthropic', attempts: 6, retryable: true },
    })
    const text = screen.getByRole('alert').querySelector('.msg-error-text')?.textContent
    expect(text).toBe("Couldn't reach Anthropic (tried 6 times). Check your internet connection, or that the server is running, then retry.")
    expect(text).not.toContain('ECONNREFUSED')
  })
})
