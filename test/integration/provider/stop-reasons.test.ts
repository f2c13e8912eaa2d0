import { afterEach, describe, expect, it } from 'vitest'
import type { StreamEvent } from '../../../src/main/core/provider'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../../fixtures/fake-llm'
import { collect, registryFor } from './helpers'

/** The finish event each wire stop reason becomes, through the real SDKs. */

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

async function finishOf(model: string, turn: FakeTurn): Promise<{ finish: Extract<StreamEvent, { type: 'finish' }> | undefined; text: string }> {
  const fake = await startFakeLlm({ turns: [turn] })
  servers.push(fake)
  const events = await collect(registryFor(fake).stream({ model, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }))
  const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('')
  return { finish: events.find((e): e is Extract<StreamEvent, { type: 'finish' }> => e.type === 'finish'), text }
}

describe('stop reasons from the wire', () => {
  it("carries an Anthropic refusal's explanation and category", async () => {
    const { finish, text } = await finishOf('anthropic/claude-sonnet-4-6', {
      text: 'Hello..',
      stopReason: 'refusal',
      stopDetails: { type: 'refusal', category: 'cyber', explanation: 'This request was declined because it could enable cyber harm.' },
    })
    expect(text).toBe('Hello..')
    expect(finish).toEqual({
      type: 'finish',
      reason: 'refusal',
      rawReason: 'refusal',
      detail: 'This request was declined because it could enable cyber harm. (cyber)',
    })
  })

  it('tells a filled context window apart from the output limit', async () => {
    expect((await finishOf('anthropic/claude-sonnet-4-6', { text: 'x', stopReason: 'model_context_window_exceeded' })).finish?.reason).toBe('context_window')
    expect((await finishOf('anthropic/claude-sonnet-4-6', { text: 'x', stopReason: 'max_tokens' })).finish?.reason).toBe('length')
  })

  it('reads OpenAI refusal deltas as the answer and the finish as a refusal', async () => {
    const { finish, text } = await finishOf('openai/gpt-4.1', { refusal: ["I'm sorry", ", I can't help."] })
    expect(text).toBe("I'm sorry, I can't help.")
    expect(finish).toMatchObject({ reason: 'refusal', rawReason: 'stop' })
  })

  it('keeps content_filter and length from Chat Completions', async () => {
    expect((await finishOf('openai/gpt-4.1', { text: 'x', stopReason: 'content_filter' })).finish?.reason).toBe('content_filter')
    expect((await finishOf('openai/gpt-4.1', { text: 'x', stopReason: 'length' })).finish?.reason).toBe('length')
  })
})
