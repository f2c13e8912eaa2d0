import { describe, expect, it } from 'vitest'
import { contextBudget, isOverflow, MAX_RESERVE_TOKENS } from '../../../src/main/core/context/overflow'
import { estimateTokens, usageTotal } from '../../../src/main/core/context/tokens'

describe('overflow math', () => {
  it('reserves min(20k, output limit) of the window', () => {
    expect(contextBudget({ context: 200_000, output: 64_000 })).toEqual({ context: 200_000, reserve: 20_000, usable: 180_000 })
    expect(contextBudget({ context: 128_000, output: 8_192 })).toEqual({ context: 128_000, reserve: 8_192, usable: 119_808 })
    expect(MAX_RESERVE_TOKENS).toBe(20_000)
  })

  it('never reserves more than half the window (a model whose output limit is its context)', () => {
    expect(contextBudget({ context: 16_000, output: 16_000 })).toEqual({ context: 16_000, reserve: 8_000, usable: 8_000 })
  })

  it('counts the whole prompt (cached or not) plus the answer', () => {
    const usage = { input: 1_000, cacheRead: 150_000, cacheWrite: 20_000, output: 9_000 }
    expect(usageTotal(usage)).toBe(180_000)
    const budget = contextBudget({ context: 200_000, output: 64_000 })
    expect(isOverflow(usageTotal(usage), budget)).toBe(false)
    expect(isOverflow(usageTotal({ ...usage, output: 9_001 }), budget)).toBe(true)
  })

  it('estimates about four characters a token, rounding up', () => {
    expect(estimateTokens('')).toBe(0)
    expect(estimateTokens('abc')).toBe(1)
    expect(estimateTokens('x'.repeat(4_001))).toBe(1_001)
  })
})
