import { describe, expect, it } from 'vitest'
import type { Effort } from '../../../src/shared/schema/effort'
import { type ChatRequest, PROVIDER_PRESETS, clampEffort, modelInfo, parseModelId } from '../../../src/main/core/provider'
import { anthropicHeaders, toAnthropicParams } from '../../../src/main/core/provider/transform/anthropic-request'
import { toOpenAIParams } from '../../../src/main/core/provider/transform/openai-request'

const model = (id: string) => modelInfo(parseModelId(id), {}, () => '2026-12-07')
const request = (id: string, effort?: Effort, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: id,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  ...(effort ? { reasoning: { effort } } : {}),
  ...extra,
})
const anthropic = (id: string, effort?: Effort, extra: Partial<ChatRequest> = {}) =>
  toAnthropicParams(request(`anthropic/${id}`, effort, extra), model(`anthropic/${id}`))
const openai = (id: string, effort?: Effort, extra: Partial<ChatRequest> = {}) => {
  const info = model(id)
  return toOpenAIParams(request(id, effort, extra), info, PROVIDER_PRESETS[info.providerId]!)
}
const tools = [{ name: 'read', description: 'Read a file', inputSchema: { type: 'object' } }]

describe('catalog reasoning capabilities', () => {
  it('gives each model a reasoning kind, the levels a user can pick and a default that reasons', () => {
    expect(model('anthropic/claude-sonnet-5-5')).toMatchObject({
      reasoning: { kind: 'anthropic-adaptive', off: 'disable' },
      efforts: ['off', 'low', 'medium', 'high', 'max'],
      defaultEffort: 'high',
      capabilities: { reasoning: true, images: true },
    })
    // Always-on thinking cannot be switched off, so `off` is not offered.
    expect(model('anthropic/claude-opus-5-5')).toMatchObject({ efforts: ['low', 'medium', 'high', 'max'], defaultEffort: 'medium' })
    expect(model('anthropic/claude-sonnet-4-6').efforts).toEqual(['off', 'low', 'medium', 'high'])
    expect(model('anthropic/claude-haiku-4-5')).toMatchObject({ reasoning: { kind: 'anthropic-budget', interleaved: true }, defaultEffort: 'medium' })
    expect(model('openai/gpt-6.2-sol')).toMatchObject({ reasoning: { kind: 'openai-effort' }, efforts: ['low', 'medium', 'high', 'max'], defaultEffort: 'medium' })
    expect(model('openai/gpt-6-luna').efforts).toEqual(['off', 'low', 'medium', 'high', 'max'])
    expect(model('openai/gpt-4.1')).toMatchObject({ reasoning: { kind: 'none' }, efforts: [], defaultEffort: 'off', capabilities: { reasoning: false } })
    expect(model('deepseek/deepseek-reasoner')).toMatchObject({ reasoning: { kind: 'reasoning-content', control: 'model' }, efforts: [] })
    expect(model('ollama/gpt-oss:20b')).toMatchObject({ reasoning: { kind: 'ollama-think', levels: true }, efforts: ['off', 'low', 'medium', 'high'] })
    expect(model('ollama/qwen3:8b')).toMatchObject({ reasoning: { kind: 'ollama-think', levels: false }, efforts: ['off', 'high'] })
    expect(model('ollama/llama3.2')).toMatchObject({ reasoning: { kind: 'none' } })
  })

  it('lands a wanted level on the nearest one the model accepts', () => {
    const opus55 = model('anthropic/claude-opus-5-5').reasoning
    expect(clampEffort(opus55, 'off')).toBe('low')
    const sonnet46 = model('anthropic/claude-sonnet-4-6').reasoning
    expect(clampEffort(sonnet46, 'max')).toBe('high')
    const qwen = model('ollama/qwen3:8b').reasoning
    expect(clampEffort(qwen, 'low')).toBe('high')
    expect(clampEffort(model('openai/gpt-4.1').reasoning, 'high')).toBe('off')
  })

  it('marks deprecated models with their successor and tells retired ones apart by date', () => {
    expect(model('anthropic/claude-sonnet-4-5').deprecation).toEqual({
      retiresOn: '2026-11-30',
      successor: 'anthropic/claude-sonnet-5-5',
      retired: true,
    })
    expect(model('anthropic/claude-opus-4-5').deprecation).toMatchObject({ successor: 'anthropic/claude-opus-5-5', retired: false })
    expect(model('anthropic/claude-sonnet-5-5').deprecation).toBeUndefined()
  })
})

describe('Anthropic adaptive thinking', () => {
  it('sends adaptive thinking with the effort, max_tokens room and no temperature', () => {
    const params = anthropic('claude-sonnet-5-5', 'low', { temperature: 0.3 })
    expect(params).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' }, max_tokens: 128_000 })
    expect(params).not.toHaveProperty('temperature')
    expect(anthropic('claude-sonnet-5-5', 'max').output_config).toEqual({ effort: 'max' })
  })

  it('switches thinking off the way each model needs', () => {
    // Thinks unless told not to: off is an explicit `disabled`.
    expect(anthropic('claude-sonnet-5-5', 'off')).toMatchObject({ thinking: { type: 'disabled' } })
    expect(anthropic('claude-sonnet-5-5', 'off')).not.toHaveProperty('output_config')
    // Thinks only when asked: off leaves thinking out.
    expect(anthropic('claude-sonnet-4-6', 'off')).not.toHaveProperty('thinking')
    // Always thinks: off becomes the lowest effort.
    expect(anthropic('claude-opus-5-5', 'off')).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } })
  })

  it('maps max to xhigh on models whose top level is xhigh and sends nothing without a reasoning request', () => {
    expect(anthropic('claude-sonnet-4-6', 'max').output_config).toEqual({ effort: 'high' })
    const plain = anthropic('claude-sonnet-5-5', undefined, { temperature: 0.3 })
    expect(plain).not.toHaveProperty('thinking')
    expect(plain).toMatchObject({ max_tokens: 32_000 })
    // The API version the SDK sends rejects sampling parameters: a requested temperature is not sent.
    expect(plain).not.toHaveProperty('temperature')
  })
})

describe('Anthropic manual budgets', () => {
  it('scales budget_tokens with effort and keeps room below max_tokens', () => {
    const budgets = (['low', 'medium', 'high', 'max'] as const).map((e) => anthropic('claude-haiku-4-5', e).thinking)
    expect(budgets).toEqual([
      { type: 'enabled', budget_tokens: 4_000 },
      { type: 'enabled', budget_tokens: 12_000 },
      { type: 'enabled', budget_tokens: 32_000 },
      { type: 'enabled', budget_tokens: 48_000 },
    ])
    expect(anthropic('claude-haiku-4-5', 'max').max_tokens).toBe(64_000)
    expect(anthropic('claude-haiku-4-5', 'off')).not.toHaveProperty('thinking')
  })

  it('asks for interleaved thinking when tools are in play', () => {
    const withTools = request('anthropic/claude-haiku-4-5', 'medium', { tools })
    expect(anthropicHeaders(withTools, model('anthropic/claude-haiku-4-5'))).toEqual({ 'anthropic-beta': 'interleaved-thinking-2025-05-14' })
    expect(anthropicHeaders(request('anthropic/claude-haiku-4-5', 'medium'), model('anthropic/claude-haiku-4-5'))).toBeUndefined()
    expect(anthropicHeaders({ ...withTools, model: 'anthropic/claude-sonnet-5-5' }, model('anthropic/claude-sonnet-5-5'))).toBeUndefined()
  })

  it('goes without budget thinking for a tool loop whose assistant turn another model wrote; adaptive thinking stays on through the loop', () => {
    const messages: ChatRequest['messages'] = [
      { role: 'user', content: [{ type: 'text', text: 'read a' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'read', input: { path: 'a' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'read', output: 'A' }] },
    ]
    expect(anthropic('claude-haiku-4-5', 'high', { messages, tools })).not.toHaveProperty('thinking')
    expect(anthropic('claude-sonnet-5-5', 'high', { messages, tools }).thinking).toEqual({ type: 'adaptive' })
  })
})

describe('OpenAI and compatible reasoning', () => {
  it('sends reasoning_effort with the values each model accepts', () => {
    expect(openai('openai/gpt-6.2-sol', 'medium')).toMatchObject({ reasoning_effort: 'medium' })
    expect(openai('openai/gpt-6.2-sol', 'max')).toMatchObject({ reasoning_effort: 'max' })
    // 6.2 rejects none: off is its lowest value.
    expect(openai('openai/gpt-6.2-sol', 'off')).toMatchObject({ reasoning_effort: 'low' })
    expect(openai('openai/gpt-6-luna', 'off')).toMatchObject({ reasoning_effort: 'none' })
    expect(openai('openai/gpt-5', 'off')).toMatchObject({ reasoning_effort: 'minimal' })
    expect(openai('openai/o3', 'max')).toMatchObject({ reasoning_effort: 'high' })
    expect(openai('openai/gpt-4.1', 'high', { temperature: 0.2 })).toMatchObject({ temperature: 0.2 })
    expect(openai('openai/gpt-4.1', 'high')).not.toHaveProperty('reasoning_effort')
  })

  it('speaks each compatible server its own dialect', () => {
    expect(openai('ollama/qwen3:8b', 'medium')).toMatchObject({ reasoning_effort: 'high' })
    expect(openai('ollama/qwen3:8b', 'off')).toMatchObject({ reasoning_effort: 'none' })
    expect(openai('ollama/gpt-oss:20b', 'low')).toMatchObject({ reasoning_effort: 'low' })
    expect(openai('openrouter/anthropic/claude-haiku-4.5', 'high')).toMatchObject({ reasoning: { effort: 'high' } })
    expect(openai('openrouter/anthropic/claude-haiku-4.5', 'off')).toMatchObject({ reasoning: { enabled: false } })
    const reasoner = openai('deepseek/deepseek-reasoner', 'high', { temperature: 0.5 })
    expect(reasoner).not.toHaveProperty('reasoning_effort')
    expect(reasoner).not.toHaveProperty('temperature')
  })

  it('switches Qwen and DeepSeek request flags', () => {
    const info = { ...model('deepseek/deepseek-chat'), reasoning: { kind: 'reasoning-content', control: 'enable-thinking' } as const }
    const qwen = (effort: Effort) => toOpenAIParams(request('deepseek/deepseek-chat', effort), { ...info, capabilities: { ...info.capabilities, reasoning: true } }, PROVIDER_PRESETS.deepseek!)
    expect(qwen('high')).toMatchObject({ enable_thinking: true })
    expect(qwen('off')).toMatchObject({ enable_thinking: false })
    const typed = { ...info, reasoning: { kind: 'reasoning-content', control: 'thinking-type' } as const, capabilities: { ...info.capabilities, reasoning: true } }
    expect(toOpenAIParams(request('deepseek/deepseek-chat', 'medium'), typed, PROVIDER_PRESETS.deepseek!)).toMatchObject({ thinking: { type: 'enabled' } })
    expect(toOpenAIParams(request('deepseek/deepseek-chat', 'off'), typed, PROVIDER_PRESETS.deepseek!)).toMatchObject({ thinking: { type: 'disabled' } })
  })
})
