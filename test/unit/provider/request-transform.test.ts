import { describe, expect, it } from 'vitest'
import { type ChatRequest, type ModelMessage, PROVIDER_PRESETS, modelInfo, parseModelId, toolCallIdFor } from '../../../src/main/core/provider'
import { toAnthropicParams } from '../../../src/main/core/provider/transform/anthropic-request'
import { toOpenAIParams } from '../../../src/main/core/provider/transform/openai-request'

const model = (id: string) => modelInfo(parseModelId(id))
const text = (t: string): { type: 'text'; text: string } => ({ type: 'text', text: t })

describe('tool-call ids', () => {
  it('keeps valid ids and maps invalid ones deterministically and distinctly', () => {
    expect(toolCallIdFor('toolu_01AbC-x', 'anthropic')).toBe('toolu_01AbC-x')
    const a = toolCallIdFor('functions.read:0', 'anthropic')
    expect(a).toMatch(/^[a-zA-Z0-9_-]+$/)
    expect(toolCallIdFor('functions.read:0', 'anthropic')).toBe(a)
    expect(toolCallIdFor('functions.read;0', 'anthropic')).not.toBe(a)
    const long = toolCallIdFor('x'.repeat(80), 'openai')
    expect(long.length).toBeLessThanOrEqual(40)
  })
})

describe('Anthropic request transform', () => {
  const base: ChatRequest = { model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: [text('hi')] }] }

  it('defaults max_tokens to the model output limit capped at 32k and never sends a temperature', () => {
    const plain = toAnthropicParams({ ...base, temperature: 0.2 }, model(base.model))
    expect(plain).toMatchObject({ max_tokens: 32_000 })
    expect(plain).not.toHaveProperty('temperature')
    const thinking = toAnthropicParams({ ...base, temperature: 0.2, reasoning: { effort: 'high' } }, model(base.model))
    expect(thinking).toMatchObject({ max_tokens: 64_000, thinking: { type: 'enabled', budget_tokens: 32_000 } })
    expect(thinking).not.toHaveProperty('temperature')
  })

  it('keeps the thinking budget below max_tokens with a quarter left for the answer', () => {
    const params = toAnthropicParams({ ...base, maxTokens: 5_000, reasoning: { effort: 'high', budgetTokens: 10_000 } }, model(base.model))
    expect(params.thinking).toEqual({ type: 'enabled', budget_tokens: 3_750 })
  })

  it('uses adaptive thinking for models that take it', () => {
    const params = toAnthropicParams({ ...base, model: 'anthropic/claude-next', reasoning: { effort: 'low' } }, model('anthropic/claude-next'))
    expect(params.thinking).toEqual({ type: 'adaptive' })
    expect(params.output_config).toEqual({ effort: 'low' })
  })

  it('replaces images for models without image input and omits cache marks when disabled', () => {
    const messages: ModelMessage[] = [{ role: 'user', content: [text('see'), { type: 'image', mediaType: 'image/png', data: 'AAAA' }] }]
    const withImages = toAnthropicParams({ ...base, messages }, model(base.model))
    expect(JSON.stringify(withImages.messages)).toContain('"type":"image"')
    const noCache = toAnthropicParams({ ...base, messages, system: 'sys', promptCache: false }, model(base.model))
    expect(JSON.stringify(noCache)).not.toContain('cache_control')
    const textOnly = toOpenAIParams({ ...base, model: 'deepseek/deepseek-chat', messages }, model('deepseek/deepseek-chat'), PROVIDER_PRESETS.deepseek!)
    expect(JSON.stringify(textOnly.messages)).toContain('image omitted')
  })

  it('never exceeds 4 cache breakpoints', () => {
    const messages: ModelMessage[] = []
    for (let i = 0; i < 5; i++) {
      messages.push({ role: 'user', content: [text(`q${i}`)] }, { role: 'assistant', content: [text(`a${i}`)] })
    }
    const params = toAnthropicParams(
      { ...base, system: 'sys', tools: [{ name: 't', description: 'd', inputSchema: { type: 'object' } }], messages },
      model(base.model),
    )
    expect(JSON.stringify(params).split('cache_control').length - 1).toBe(4)
  })
})

describe('OpenAI request transform', () => {
  it('uses max_completion_tokens and reasoning_effort for OpenAI reasoning models, no temperature', () => {
    const params = toOpenAIParams(
      { model: 'openai/o3', messages: [{ role: 'user', content: [text('hi')] }], temperature: 0.5, reasoning: { effort: 'high' } },
      model('openai/o3'),
      PROVIDER_PRESETS.openai!,
    )
    expect(params).toMatchObject({ max_completion_tokens: 32_000, reasoning_effort: 'high' })
    expect(params).not.toHaveProperty('temperature')
    expect(params).not.toHaveProperty('max_tokens')
  })

  it('uses max_tokens for compatible servers and joins system blocks', () => {
    const params = toOpenAIParams(
      { model: 'moonshot/kimi-k2-0905-preview', system: ['a', ' ', 'b'], messages: [{ role: 'user', content: [text('hi')] }], temperature: 0.3 },
      model('moonshot/kimi-k2-0905-preview'),
      PROVIDER_PRESETS.moonshot!,
    )
    expect(params).toMatchObject({ max_tokens: 16_384, temperature: 0.3 })
    expect(params.messages[0]).toEqual({ role: 'system', content: 'a\n\nb' })
  })

  it("sends Gemini's thought signature back with the call it signed, to Gemini only", () => {
    const signed: ModelMessage[] = [
      { role: 'user', content: [text('weather?')] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'call-paris', name: 'get_weather', input: { location: 'Paris' }, signature: '<Signature A>', providerId: 'gemini' },
          { type: 'tool-call', id: 'call-london', name: 'get_weather', input: { location: 'London' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call-paris', toolName: 'get_weather', output: 'sunny' },
          { type: 'tool-result', toolCallId: 'call-london', toolName: 'get_weather', output: 'rain' },
        ],
      },
    ]
    const gemini = { ...PROVIDER_PRESETS.lmstudio!, id: 'gemini', name: 'gemini', free: false }
    const toGemini = toOpenAIParams({ model: 'gemini/gemini-3-pro', messages: signed }, model('gemini/gemini-3-pro'), gemini)
    const calls = (toGemini.messages[1] as { tool_calls: Array<{ extra_content?: unknown }> }).tool_calls
    expect(calls[0]?.extra_content).toEqual({ google: { thought_signature: '<Signature A>' } })
    expect(calls[1]).not.toHaveProperty('extra_content')
    const toOthers = toOpenAIParams({ model: 'deepseek/deepseek-chat', messages: signed }, model('deepseek/deepseek-chat'), PROVIDER_PRESETS.deepseek!)
    expect(JSON.stringify(toOthers.messages)).not.toContain('thought_signature')
    // DeepSeek's chat model does not think: a call another model made goes without an empty reasoning field.
    expect(toOthers.messages[1]).not.toHaveProperty('reasoning_content')
    const toReasoner = toOpenAIParams({ model: 'deepseek/deepseek-reasoner', messages: signed }, model('deepseek/deepseek-reasoner'), PROVIDER_PRESETS.deepseek!)
    expect(toReasoner.messages[1]).toMatchObject({ reasoning_content: '' })
  })
})
