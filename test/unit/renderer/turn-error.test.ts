import { describe, expect, it } from 'vitest'
import { turnErrorView } from '../../../src/renderer/src/features/chat/messages/turn-error'

describe('how the chat shows a failed turn', () => {
  it('the chat shows Stop quietly, a missing key and billing in their own words, and the rest by name', () => {
    expect(turnErrorView('Aborted')).toBe('stopped')
    expect(turnErrorView('ProviderAuth')).toBe('needs-key')
    expect(turnErrorView('ProviderBilling')).toBe('own-words')
    expect(turnErrorView('AgentNotFound')).toBe('named')
    // A transcript written by an older version may hold a name that is no longer registered.
    expect(turnErrorView('SomethingFromLastYear')).toBe('named')
  })
})
