import { describe, expect, it } from 'vitest'
import { builtinTools, editFamilyDefaults, usesPatchEdits } from '../../../src/main/core/tools'
import { ToolRegistry } from '../../../src/main/core/tools/registry'

describe('tool definitions', () => {
  it('carry no integer bounds that say nothing', () => {
    const defs = JSON.stringify(new ToolRegistry(builtinTools()).definitions())
    expect(defs).not.toContain(String(Number.MAX_SAFE_INTEGER))
    expect(defs).not.toContain(String(Number.MIN_SAFE_INTEGER))
  })

  it('give each model family one way to edit, which an agent config can still widen', () => {
    expect(usesPatchEdits('openai/gpt-5-codex')).toBe(true)
    expect(usesPatchEdits('openrouter/openai/gpt-5')).toBe(true)
    expect(usesPatchEdits('anthropic/claude-sonnet-4-6')).toBe(false)
    expect(usesPatchEdits('deepseek/deepseek-chat')).toBe(false)
    const registry = new ToolRegistry(builtinTools())
    const ids = (model: string, config?: Record<string, boolean>) => registry.forAgent('build', config, editFamilyDefaults(model)).map((t) => t.id)
    expect(ids('anthropic/claude-sonnet-4-6')).toEqual(expect.arrayContaining(['edit', 'multiedit', 'write']))
    expect(ids('anthropic/claude-sonnet-4-6')).not.toContain('apply_patch')
    expect(ids('openai/gpt-5')).toEqual(expect.arrayContaining(['apply_patch', 'write']))
    expect(ids('openai/gpt-5')).not.toContain('edit')
    expect(ids('openai/gpt-5', { edit: true })).toContain('edit')
    // The explore agent's own limits still hold.
    expect(registry.forAgent('explore', undefined, editFamilyDefaults('openai/gpt-5')).map((t) => t.id)).not.toContain('apply_patch')
  })
})
