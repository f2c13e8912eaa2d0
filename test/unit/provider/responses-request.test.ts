import { describe, expect, it } from 'vitest'
import { PROVIDER_PRESETS, modelInfo, parseModelId } from '../../../src/main/core/provider'
import { toResponsesParams } from '../../../src/main/core/provider/transform/responses-request'
import type { ChatRequest, ReasoningEffort } from '../../../src/main/core/provider'

const openai = PROVIDER_PRESETS.openai
if (!openai) throw new Error('no openai preset')
const model = (id: string) => modelInfo(parseModelId(id))
const request = (id: string, effort?: ReasoningEffort): ChatRequest => ({
  model: id,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  ...(effort ? { reasoning: { effort } } : {}),
})

describe('which API a model speaks', () => {
  it('OpenAI codex ids and reasoning models use Responses; other models and other providers use Chat', () => {
    for (const id of ['openai/gpt-5-codex', 'openai/gpt-5.1-codex', 'openai/gpt-5.1-codex-max', 'openai/gpt-5.1-codex-mini', 'openai/my-codex-preview', 'openai/o3', 'openai/gpt-5']) {
      expect(model(id).api, id).toBe('responses')
    }
    for (const id of ['openai/gpt-4.1', 'openai/gpt-4o', 'deepseek/deepseek-chat', 'ollama/codex-local', 'anthropic/claude-sonnet-4-6']) {
      expect(model(id).api, id).toBe('chat')
    }
  })

  it('a provider setting overrides the catalog both ways', () => {
    expect(modelInfo(parseModelId('openai/gpt-5-codex'), { providers: { openai: { api: 'chat' } } }).api).toBe('chat')
    expect(modelInfo(parseModelId('mine/any'), { providers: { mine: { baseURL: 'http://127.0.0.1:1/v1', api: 'responses' } } }).api).toBe('responses')
  })

  it('an unlisted codex model reasons and gets codex limits, not the small defaults', () => {
    const codex = model('openai/gpt-5-codex')
    expect(codex.capabilities.reasoning).toBe(true)
    expect(codex.limit).toEqual({ context: 400_000, output: 128_000 })
  })
})

describe('Responses reasoning effort', () => {
  const effortOf = (id: string, effort?: ReasoningEffort) => toResponsesParams(request(id, effort), model(id), openai).reasoning

  it('max is xhigh where the model takes it, else high', () => {
    expect(effortOf('openai/gpt-5.1-codex-max', 'max')).toEqual({ effort: 'xhigh', summary: 'auto' })
    expect(effortOf('openai/gpt-5-codex', 'max')).toEqual({ effort: 'high', summary: 'auto' })
  })

  it('levels pass through; no effort asks only for summaries', () => {
    expect(effortOf('openai/gpt-5-codex', 'low')).toEqual({ effort: 'low', summary: 'auto' })
    expect(effortOf('openai/gpt-5-codex')).toEqual({ summary: 'auto' })
  })

  it('a model that does not reason gets neither reasoning nor the encrypted include, but its temperature', () => {
    const params = toResponsesParams({ ...request('openai/gpt-4.1', 'high'), temperature: 0.4 }, model('openai/gpt-4.1'), openai)
    expect(params.reasoning).toBeUndefined()
    expect(params.include).toBeUndefined()
    expect(params.temperature).toBe(0.4)
  })
})
