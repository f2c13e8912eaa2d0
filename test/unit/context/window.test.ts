import { describe, expect, it } from 'vitest'
import { toModelMessages } from '../../../src/main/core/agent/transcript'
import { checkInvariant } from '../../../src/main/core/context/invariant'
import { lastStepOverflowed, measureView } from '../../../src/main/core/context/measure'
import { coveredCount } from '../../../src/main/core/context/tail'
import { messageTokens } from '../../../src/main/core/context/tokens'
import { contextView, viewMessages } from '../../../src/main/core/context/window'
import { assistant, marker, text, tokensOf, tool, user } from './builders'

const MODEL = 'anthropic/claude-sonnet-4-5'

describe('context view', () => {
  it('sends the newest summary and the messages after the one it covers, never earlier ones', () => {
    const a = user('first task')
    const b = assistant([text('done first'), tool('read', 'old output')])
    const c = user('second task')
    const d = assistant([text('working'), tool('read', 'new output')])
    const m1 = marker('summary one', b.info.id)
    const e = user('third task')
    const view = contextView([a, b, c, d, m1, e])
    expect(view.compaction?.part.summary).toBe('summary one')
    expect(view.tail.map((m) => m.info.id)).toEqual([c.info.id, d.info.id, e.info.id])
    expect(view.freshFrom).toBe(2)
    const { messages } = toModelMessages(viewMessages(view))
    expect(checkInvariant(messages)).toEqual([])
    const sent = JSON.stringify(messages)
    expect(sent).toContain('summary one')
    expect(sent).toContain('second task')
    expect(sent).not.toContain('first task')
    expect(sent).not.toContain('old output')
    // The summary leads the first user message.
    expect(messages[0]?.role).toBe('user')
    expect(JSON.stringify(messages[0])).toMatch(/conversation-summary[\s\S]*second task/)
  })

  it('uses only the newest marker; a marker without a known covered message covers all before it', () => {
    const a = user('one')
    const m1 = marker('first summary', a.info.id)
    const b = user('two')
    const m2 = marker('second summary', 'msg_00000000gone00')
    const c = user('three')
    const view = contextView([a, m1, b, m2, c])
    expect(view.compaction?.part.summary).toBe('second summary')
    expect(view.tail.map((m) => m.info.id)).toEqual([c.info.id])
  })

  it('starts with the summary even when the verbatim tail starts with the model', () => {
    const a = user('task')
    const b = assistant([tool('read', 'x')])
    const c = assistant([tool('read', 'y')])
    const view = contextView([a, b, c, marker('sum', b.info.id)])
    const { messages } = toModelMessages(viewMessages(view))
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
    expect(checkInvariant(messages)).toEqual([])
  })
})

describe('measuring a request', () => {
  it("uses the last step's real usage plus an estimate of what came after it", () => {
    const a = user('go')
    const b = assistant([tool('read', tokensOf(1_000))], { usage: { input: 50_000, output: 500, cacheRead: 0, cacheWrite: 0 } })
    const c = user(tokensOf(200))
    const measured = measureView(contextView([a, b, c]), MODEL, 0)
    expect(measured.source).toBe('usage')
    expect(measured.tokens).toBeGreaterThan(50_500 + 1_000 + 200)
    expect(measured.tokens).toBeLessThan(50_500 + 1_000 + 200 + 50)
  })

  it('estimates everything when the usage is stale: another model, pruned since, failed, or before the summary', () => {
    const usage = { input: 90_000, output: 10, cacheRead: 0, cacheWrite: 0 }
    const a = user('go')
    const other = assistant([text('hi')], { usage, model: 'openai/gpt-4.1' })
    expect(measureView(contextView([a, other]), MODEL, 0).source).toBe('estimate')
    const b = assistant([text('hi'), tool('read', 'x', { compactedAt: 10_000 })], { usage, completedAt: 10_000 })
    expect(measureView(contextView([a, b]), MODEL, 0).source).toBe('estimate')
    const failed = assistant([text('hi')], { usage, error: { name: 'Aborted', data: { message: 'stopped' } } })
    expect(measureView(contextView([a, failed]), MODEL, 0).source).toBe('estimate')
    const before = assistant([text('hi')], { usage })
    const measured = measureView(contextView([a, before, marker('sum', a.info.id)]), MODEL, 400)
    expect(measured.source).toBe('estimate')
    expect(measured.tokens).toBeLessThan(1_000)
  })

  it('forces a check after the provider refused the prompt as too long, until a summary is written', () => {
    const overflowed = assistant([], { error: { name: 'ContextOverflow', data: { message: 'prompt is too long' } } })
    const history = [user('go'), overflowed]
    expect(lastStepOverflowed(contextView(history))).toBe(true)
    expect(lastStepOverflowed(contextView([...history, marker('sum', history[0]!.info.id)]))).toBe(false)
  })
})

describe('the verbatim tail of an automatic summary', () => {
  it('keeps the last two user turns when they fit', () => {
    const tail = [user('a'), assistant([text('1')]), user('b'), assistant([text('2')]), user('c'), assistant([text('3')])]
    expect(coveredCount(tail, 180_000)).toBe(2)
  })

  it('cuts a turn too large for the budget between stored messages', () => {
    const big = assistant([tool('read', tokensOf(30_000))])
    const tail = [user('a'), big, assistant([tool('read', tokensOf(5_000))]), assistant([text('end')])]
    // Budget: a quarter of 100k = 25k tokens; the big message does not fit, the later ones do.
    expect(coveredCount(tail, 100_000)).toBe(2)
    expect(messageTokens(big)).toBeGreaterThan(25_000)
  })

  it('still summarizes something when everything would fit (the estimate was low)', () => {
    const tail = [user('a'), assistant([text('1')]), user('b'), assistant([text('2')])]
    expect(coveredCount(tail, 180_000, 5)).toBe(2)
    expect(coveredCount([user('a'), assistant([text('1')])], 180_000)).toBe(2)
  })
})
