import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toModelMessages } from '../../../src/main/core/agent/transcript'
import { checkInvariant, enforceInvariant, repairCount } from '../../../src/main/core/context/invariant'
import { contextView, viewMessages } from '../../../src/main/core/context/window'
import { type ModelMessage, modelInfo, PROVIDER_PRESETS } from '../../../src/main/core/provider'
import { toAnthropicParams } from '../../../src/main/core/provider/transform/anthropic-request'
import { toOpenAIParams } from '../../../src/main/core/provider/transform/openai-request'
import { validateAnthropic } from '../../fixtures/fake-llm/validate-anthropic'
import { validateOpenAI } from '../../fixtures/fake-llm/validate-openai'
import { buildHistory, messageSeed, modelMessages } from './arbitraries'
import { assistant, text, tool, user } from './builders'

const claude = modelInfo({ providerId: 'anthropic', modelId: 'claude-sonnet-4-5' })
const gpt = modelInfo({ providerId: 'openai', modelId: 'gpt-4.1' })
const tools = [{ name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }]

/** What the real APIs would say about these messages (the fake server's validators mirror them). */
function wireProblems(messages: ModelMessage[]): string[] {
  const request = { model: 'x', system: ['You are a test.'], messages, tools }
  const anthropic = validateAnthropic(JSON.parse(JSON.stringify(toAnthropicParams(request, claude))))
  const openai = validateOpenAI(JSON.parse(JSON.stringify(toOpenAIParams(request, gpt, PROVIDER_PRESETS.openai!))))
  return [anthropic?.message, openai?.message].filter((m): m is string => m !== undefined)
}

describe('transcript invariant', () => {
  it('answers calls left without a result and leaves out results without a call', () => {
    const messages: ModelMessage[] = [
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'lost', toolName: 'read', output: 'x' }] },
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'a', name: 'read', input: {} }, { type: 'tool-call', id: 'b', name: 'read', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'b', toolName: 'read', output: 'B' }, { type: 'tool-result', toolCallId: 'zzz', toolName: 'read', output: 'Z' }] },
    ]
    expect(checkInvariant(messages).length).toBeGreaterThan(0)
    const { messages: fixed, repair } = enforceInvariant(messages)
    expect(checkInvariant(fixed)).toEqual([])
    expect(repair.unanswered).toEqual(['a'])
    expect(repair.orphaned).toEqual(['lost', 'zzz'])
    const results = fixed[2]?.role === 'tool' ? fixed[2].content : []
    expect(results.map((r) => [r.toolCallId, r.output])).toEqual([
      ['a', expect.stringContaining('interrupted')],
      ['b', 'B'],
    ])
  })

  it('renames a call id the model reused, together with its result', () => {
    const history = [user('go'), assistant([tool('read', 'one', {}, 'call_1')]), assistant([tool('read', 'two', {}, 'call_1')])]
    const { messages, repair } = toModelMessages(history)
    expect(repair.invariant.renamed).toEqual(['call_1'])
    expect(checkInvariant(messages)).toEqual([])
    expect(messages[4]?.role === 'tool' && messages[4].content[0]).toMatchObject({ toolCallId: 'call_1_2', output: 'two' })
  })

  it('leaves a healthy transcript untouched', () => {
    const history = [user('go'), assistant([text('reading'), tool('read', 'content')]), assistant([text('done')])]
    const { messages, repair } = toModelMessages(history)
    expect(repairCount(repair.invariant)).toBe(0)
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
  })

  it('fuzz: any provider-level message list is repaired into a valid one, and repair is idempotent', () => {
    fc.assert(
      fc.property(modelMessages, (messages) => {
        const once = enforceInvariant(messages)
        expect(checkInvariant(once.messages)).toEqual([])
        const twice = enforceInvariant(once.messages)
        expect(repairCount(twice.repair)).toBe(0)
        expect(twice.messages).toEqual(once.messages)
      }),
      { numRuns: 2_000 },
    )
  })

  it('fuzz: any stored transcript, at any compaction point, after aborts, crashes and restarts, gives a request both APIs accept', () => {
    fc.assert(
      fc.property(fc.array(messageSeed, { maxLength: 30 }), fc.boolean(), (seeds, restarted) => {
        const history = buildHistory(seeds, restarted)
        const { messages } = toModelMessages(viewMessages(contextView(history)))
        expect(checkInvariant(messages)).toEqual([])
        if (messages.length > 0) expect(wireProblems(messages)).toEqual([])
      }),
      { numRuns: 1_500 },
    )
  })

  it('fuzz: a compaction boundary at every message of a transcript keeps each call with its result', () => {
    fc.assert(
      fc.property(fc.array(messageSeed.filter((s) => s.kind !== 'marker'), { minLength: 1, maxLength: 20 }), (seeds) => {
        const history = buildHistory(seeds)
        for (let cut = -1; cut < history.length; cut++) {
          const marked = buildHistory([...seeds, { kind: 'marker', upTo: cut, summary: 'summary' }])
          const { messages } = toModelMessages(viewMessages(contextView(marked)))
          expect(checkInvariant(messages)).toEqual([])
          expect(wireProblems(messages)).toEqual([])
        }
        expect(history.length).toBe(seeds.length)
      }),
      { numRuns: 500 },
    )
  })
})
