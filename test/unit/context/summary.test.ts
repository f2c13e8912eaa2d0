import { describe, expect, it } from 'vitest'
import { HotaruError } from '@shared/errors'
import type { ChatRequest, Completion, ModelInfo } from '../../../src/main/core/provider'
import { modelInfo } from '../../../src/main/core/provider'
import { summarize, type SummaryProvider } from '../../../src/main/core/context/compaction'
import { clipMiddle, renderSummaryInput } from '../../../src/main/core/context/summary-input'
import { assistant, text, tokensOf, tool, user, userWithContext } from './builders'

const turns = (n: number, outputTokens: number) =>
  Array.from({ length: n }, (_, i) => [user(`request ${i}`), assistant([text(`answer ${i}`), tool('read', tokensOf(outputTokens, 'o'), { input: { path: `f${i}.ts` } })])]).flat()

describe('summary input degrade', () => {
  it('sends everything when it fits', () => {
    const input = renderSummaryInput('earlier summary', turns(3, 100), 10_000)
    expect(input.level).toBe('full')
    expect(input.text).toContain('<previous-summary>\nearlier summary')
    expect(input.text).toContain('request 2')
    expect(input.text).toContain('[tool read {"path":"f2.ts"} → completed]')
  })

  it('clips long tool outputs, then drops them, then leaves out older turns, then cuts', () => {
    const covered = turns(8, 2_000) // ~16k tokens of output
    expect(renderSummaryInput(undefined, covered, 20_000).level).toBe('full')
    const clipped = renderSummaryInput(undefined, covered, 8_000)
    expect(clipped.level).toBe('clipped')
    expect(clipped.text).toContain('characters left out')
    const stripped = renderSummaryInput(undefined, covered, 1_000)
    expect(stripped.level).toBe('no-outputs')
    expect(stripped.text).not.toContain('oooo')
    expect(stripped.text).toContain('request 0')
    const fewer = renderSummaryInput('prior', covered, 120)
    expect(fewer.level).toBe('fewer-turns')
    expect(fewer.omittedMessages).toBeGreaterThan(0)
    expect(fewer.text).toContain('request 7')
    expect(fewer.text).not.toContain('request 0')
    expect(fewer.text).toContain('prior')
    const cut = renderSummaryInput(tokensOf(5_000, 's'), covered, 100)
    expect(cut.level).toBe('truncated')
    expect(cut.text.length).toBeLessThanOrEqual(400)
    expect(clipped.text.length).toBeLessThanOrEqual(8_000 * 4)
    expect(stripped.text.length).toBeLessThanOrEqual(1_000 * 4)
    expect(fewer.text.length).toBeLessThanOrEqual(120 * 4)
  })

  it('tells the summarizer the late diagnostics the model was sent, but not the state the summary carries itself', () => {
    const diagnostics = 'src/app.ts:3:7 error TS2322: Type string is not assignable to type number'
    const covered = [
      userWithContext('fix the build', [{ name: 'git', text: 'branch main, clean' }]),
      assistant([text('editing'), tool('edit', 'ok', { input: { path: 'src/app.ts' } }), { type: 'context', sections: [{ name: 'diagnostics', text: diagnostics }] }]),
    ]
    const full = renderSummaryInput(undefined, covered, 10_000)
    expect(full.level).toBe('full')
    expect(full.text).toContain(`[diagnostics]\n${diagnostics}`)
    expect(full.text).not.toContain('branch main, clean')
    const stripped = renderSummaryInput(undefined, covered, 1_000, 'no-outputs')
    expect(stripped.text).not.toContain('TS2322')
  })

  it('clips in the middle, keeping both ends', () => {
    const clipped = clipMiddle(`HEAD${'x'.repeat(1_000)}TAIL`, 200)
    expect(clipped.length).toBeLessThanOrEqual(200)
    expect(clipped.startsWith('HEAD')).toBe(true)
    expect(clipped.endsWith('TAIL')).toBe(true)
  })
})

function stubProvider(model: ModelInfo, answer: (request: ChatRequest, call: number) => Completion): SummaryProvider & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = []
  return {
    requests,
    model: () => model,
    complete: async (request) => {
      requests.push(request)
      return answer(request, requests.length)
    },
  }
}

const completion = (text: string): Completion => ({ text, reasoning: '', toolCalls: [], usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, finishReason: 'stop' })

describe('summarize', () => {
  const small = { ...modelInfo({ providerId: 'openai', modelId: 'gpt-4.1' }), limit: { context: 12_000, output: 4_000 } }

  it('sizes the input to the summarizing model and asks the hidden agent for the structured summary', async () => {
    const provider = stubProvider(small, () => completion('<think>hmm</think>\n## Goal\nShip it.'))
    const outcome = await summarize(provider, { model: 'openai/gpt-4.1', covered: turns(10, 3_000) })
    expect(outcome.summary).toBe('## Goal\nShip it.')
    expect(outcome.level).not.toBe('full')
    const request = provider.requests[0]!
    expect(String(request.system)).toContain('## Open work')
    expect(request.maxTokens).toBe(4_000)
    expect(JSON.stringify(request.messages).length / 4).toBeLessThan(8_000)
  })

  it('halves the input when the provider still finds it too long', async () => {
    const provider = stubProvider(small, (_request, call) => {
      if (call === 1) throw new HotaruError('ContextOverflow', { message: 'prompt is too long', retryable: false })
      return completion('## Goal\nok')
    })
    const outcome = await summarize(provider, { model: 'openai/gpt-4.1', covered: turns(10, 3_000) })
    expect(outcome.summary).toContain('ok')
    const [first, second] = provider.requests.map((r) => JSON.stringify(r.messages).length)
    expect(second).toBeLessThanOrEqual(first! / 2 + 200)
  })

  it('fails on an empty answer instead of storing an empty summary', async () => {
    const provider = stubProvider(small, () => completion('   '))
    await expect(summarize(provider, { model: 'openai/gpt-4.1', covered: turns(1, 10) })).rejects.toMatchObject({ name: 'CompactionFailed' })
  })
})
