import { describe, expect, it } from 'vitest'
import { friendlyError, keyNeeded, retryLine } from '../../../src/renderer/src/features/chat/messages/error-text'

describe('error text for people', () => {
  it('leaves messages already written for people alone', () => {
    expect(friendlyError('ProviderBilling', { message: 'add credits' })).toBeNull()
    expect(friendlyError('ProviderAuth', { message: 'no key' })).toBeNull()
  })

  it('names the provider, or speaks of the model provider when it is not known', () => {
    expect(friendlyError('ProviderOverloaded', { message: 'x', providerId: 'anthropic' })).toBe('Anthropic is overloaded right now. Retry in a moment.')
    expect(friendlyError('ProviderOverloaded', { message: 'x' })).toBe('The model provider is overloaded right now. Retry in a moment.')
    expect(friendlyError('ProviderOverloaded', { message: 'x', providerId: 'acme' })).toBe('acme is overloaded right now. Retry in a moment.')
  })

  it('says a retry is coming, when, and why, without the raw network error', () => {
    expect(retryLine(2, 'anthropic: fetch failed: connect ECONNREFUSED 127.0.0.1:9', 4)).toBe('Retrying in 4 s (attempt 2): the provider cannot be reached')
    expect(retryLine(1, 'anthropic: 503 overloaded', null)).toBe('Retrying (attempt 1): the provider did not answer')
  })
})

describe('a missing key, for people', () => {
  it('asks for a key, or says the key was refused, without config names', () => {
    const none = keyNeeded('anthropic', 'No API key for Anthropic: set $ANTHROPIC_API_KEY, or provider.anthropic.apiKey in config')
    expect(none).toBe('Anthropic needs an API key before it can answer. Add one, or use a model that runs on this computer.')
    expect(keyNeeded('openai', 'openai: 401 invalid api key')).toBe('OpenAI did not accept the API key. Check it in Settings, or use a model that runs on this computer.')
  })
})
