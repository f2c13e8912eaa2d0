import { describe, expect, it } from 'vitest'
import { computeCost, modelInfo, parseModelId } from '../../../src/main/core/provider'

describe('model ids', () => {
  it('splits at the first slash only', () => {
    expect(parseModelId('anthropic/claude-sonnet-4-5')).toEqual({ providerId: 'anthropic', modelId: 'claude-sonnet-4-5' })
    expect(parseModelId('openrouter/anthropic/claude-sonnet-4.5')).toEqual({
      providerId: 'openrouter',
      modelId: 'anthropic/claude-sonnet-4.5',
    })
  })

  it.each(['claude', '/model', 'anthropic/'])('rejects %s as ProviderUnknown', (id) => {
    expect(() => parseModelId(id)).toThrow(expect.objectContaining({ name: 'ProviderUnknown' }))
  })
})

describe('model catalog', () => {
  it('knows limits, pricing and capabilities of catalog models', () => {
    const info = modelInfo(parseModelId('anthropic/claude-sonnet-4-5'))
    expect(info).toMatchObject({
      id: 'anthropic/claude-sonnet-4-5',
      known: true,
      limit: { context: 200_000, output: 64_000 },
      pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      capabilities: { tools: true, reasoning: true, images: true },
    })
    expect(modelInfo(parseModelId('openai/gpt-4.1'))).toMatchObject({ known: true, limit: { context: 1_047_576, output: 32_768 } })
  })

  it('resolves dated snapshots and aliases', () => {
    expect(modelInfo(parseModelId('anthropic/claude-sonnet-4-5-20250929')).name).toBe('Claude Sonnet 4.5')
    expect(modelInfo(parseModelId('anthropic/claude-sonnet-4-20250514')).name).toBe('Claude Sonnet 4')
  })

  it('reuses the upstream vendor entry for router ids', () => {
    const info = modelInfo(parseModelId('openrouter/anthropic/claude-sonnet-4.5'))
    expect(info).toMatchObject({ known: true, pricing: { input: 3 } })
  })

  it('gives unknown models sane defaults and unknown pricing', () => {
    const info = modelInfo(parseModelId('openai/some-future-model'))
    expect(info).toMatchObject({
      known: false,
      limit: { context: 128_000, output: 8_192 },
      capabilities: { tools: true, reasoning: false, images: false },
    })
    expect(info.pricing).toBeUndefined()
    expect(modelInfo(parseModelId('anthropic/claude-next'))).toMatchObject({
      known: false,
      limit: { context: 1_000_000, output: 64_000 },
      capabilities: { reasoning: true, images: true },
      reasoning: { kind: 'anthropic-adaptive' },
    })
  })

  it('prices local runtimes at zero and applies configured limit overrides', () => {
    expect(modelInfo(parseModelId('ollama/qwen3:8b')).pricing).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 })
    const info = modelInfo(parseModelId('ollama/qwen3:8b'), {
      providers: { ollama: { models: { 'qwen3:8b': { contextLimit: 32_768, outputLimit: 4_096 } } } },
    })
    expect(info.limit).toEqual({ context: 32_768, output: 4_096 })
  })
})

describe('computeCost', () => {
  it('prices each token class per million', () => {
    const pricing = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }
    const cost = computeCost({ input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 400_000 }, pricing)
    expect(cost).toBeCloseTo(3 + 1.5 + 0.6 + 1.5, 10)
  })

  it('falls back to the input price for cache classes and returns undefined without pricing', () => {
    expect(computeCost({ input: 0, output: 0, cacheRead: 1_000_000, cacheWrite: 0 }, { input: 2, output: 8 })).toBe(2)
    expect(computeCost({ input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, undefined)).toBeUndefined()
  })
})
