import { describe, expect, it } from 'vitest'
import { prunedOutput } from '../../../src/main/core/context/placeholder'
import { PRUNE_MINIMUM_TOKENS, PRUNE_PROTECT_TOKENS, selectPrune } from '../../../src/main/core/context/prune'
import { estimateTokens } from '../../../src/main/core/context/tokens'
import { toModelMessages } from '../../../src/main/core/agent/transcript'
import { assistant, text, tokensOf, tool, toolParts, user } from './builders'

const outputs = (n: number, tokens: number, name = 'read') =>
  Array.from({ length: n }, (_, i) => assistant([tool(name, tokensOf(tokens, String(i % 10)))]))

describe('prune selection', () => {
  it('keeps the last two user turns whole and the newest 40k tokens of older output', () => {
    const old = outputs(8, 10_000) // 80k tokens of output, oldest first
    const recent = [user('two'), ...outputs(3, 10_000), user('three'), ...outputs(3, 10_000)]
    const tail = [user('one'), ...old, ...recent]
    const selection = selectPrune(tail)
    const oldParts = toolParts(old)
    // Newest first: the four newest old outputs fill the 40k budget, the four oldest go.
    expect(selection.parts.map((p) => p.id)).toEqual(oldParts.slice(0, 4).reverse().map((p) => p.id))
    expect(selection.worthIt).toBe(true)
    const placeholder = estimateTokens(prunedOutput(oldParts[0]!))
    expect(selection.freedTokens).toBe(4 * (10_000 - placeholder))
    expect(toolParts(recent).some((p) => selection.parts.includes(p))).toBe(false)
  })

  it('prunes nothing when the gain is under 20k tokens', () => {
    const tail = [user('one'), ...outputs(5, 10_000), user('two'), user('three')]
    const selection = selectPrune(tail)
    expect(selection.parts).toHaveLength(1)
    expect(selection.freedTokens).toBeLessThan(PRUNE_MINIMUM_TOKENS)
    expect(selection.worthIt).toBe(false)
  })

  it('never prunes skill output, failed calls or outputs already pruned', () => {
    const skill = assistant([tool('skill', tokensOf(30_000))])
    const failed = assistant([tool('bash', '', { status: 'error', error: tokensOf(30_000) })])
    const pruned = assistant([tool('read', tokensOf(30_000), { compactedAt: 1 })])
    const fresh = outputs(6, 10_000)
    const tail = [user('one'), skill, failed, pruned, ...fresh, user('two'), user('three')]
    const selection = selectPrune(tail)
    const chosen = new Set(selection.parts.map((p) => p.id))
    for (const m of [skill, failed, pruned]) expect(toolParts([m]).some((p) => chosen.has(p.id))).toBe(false)
    expect(selection.parts).toHaveLength(2)
    expect(selection.worthIt).toBe(false)
    expect(selectPrune(tail, { minimumTokens: 10_000 }).worthIt).toBe(true)
    expect(PRUNE_PROTECT_TOKENS).toBe(40_000)
  })

  it('sends a placeholder for a pruned output, naming the call', () => {
    const call = assistant([text('reading'), tool('read', 'secret content', { compactedAt: 5, title: 'src/a.ts' })])
    const { messages } = toModelMessages([user('go'), call])
    const result = messages[2]
    expect(result?.role).toBe('tool')
    const output = result?.role === 'tool' ? result.content[0]?.output : undefined
    expect(output).toContain('read (src/a.ts)')
    expect(output).not.toContain('secret content')
  })
})
