import { describe, expect, it } from 'vitest'
import { promptCost } from '../../../bench/support/prompt-cost'

const TOOLS = [{ name: 'read', description: 'x'.repeat(4000), input_schema: { type: 'object' } }]
const SYSTEM = [{ type: 'text', text: 's'.repeat(4000), cache_control: { type: 'ephemeral' } }]
const user = (text: string, cached = false) => ({ role: 'user', content: [{ type: 'text', text, ...(cached ? { cache_control: { type: 'ephemeral' } } : {}) }] })
const assistant = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] })

describe('estimated prompt cost with Anthropic caching', () => {
  it('a second turn with a stable prefix reads what the first wrote: full reuse', () => {
    const first = { model: 'claude-sonnet-4-6', tools: TOOLS, system: SYSTEM, messages: [user('turn one', true)] }
    const second = { model: 'claude-sonnet-4-6', tools: TOOLS, system: SYSTEM, messages: [user('turn one'), assistant('done'), user('turn two', true)] }
    const cost = promptCost([first, second])
    expect(cost.reuse).toBe(1)
    expect(cost.cacheReadTokens).toBeGreaterThan(2000)
  })

  it('per-turn state in the system prompt rewrites everything after it: reuse falls and cost rises', () => {
    const system = (date: string) => [{ type: 'text', text: `Today is ${date}. ${'s'.repeat(4000)}`, cache_control: { type: 'ephemeral' } }]
    const stable = promptCost([
      { model: 'claude-sonnet-4-6', tools: TOOLS, system: SYSTEM, messages: [user('a'.repeat(8000), true)] },
      { model: 'claude-sonnet-4-6', tools: TOOLS, system: SYSTEM, messages: [user('a'.repeat(8000)), assistant('ok'), user('b', true)] },
    ])
    const moving = promptCost([
      { model: 'claude-sonnet-4-6', tools: TOOLS, system: system('Monday'), messages: [user('a'.repeat(8000), true)] },
      { model: 'claude-sonnet-4-6', tools: TOOLS, system: system('Tuesday'), messages: [user('a'.repeat(8000)), assistant('ok'), user('b', true)] },
    ])
    expect(moving.reuse).toBeLessThan(0.5)
    expect(moving.dollars).toBeGreaterThan(stable.dollars)
  })

  it('requests without breakpoints pay full input price, and another model shares no cache', () => {
    const body = { model: 'claude-sonnet-4-6', tools: TOOLS, messages: [user('hello')] }
    const cost = promptCost([body, body, { ...body, model: 'claude-haiku-4-5' }])
    expect(cost.cacheReadTokens).toBe(0)
    expect(cost.cacheWriteTokens).toBe(0)
    expect(cost.reuse).toBe(0)
  })
})
