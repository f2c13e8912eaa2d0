import { describe, expect, it } from 'vitest'
import { MAX_CONFIG_NESTING, parseJsonc } from '../../src/main/core/config/jsonc'

const file = { path: '/p/hotaru.json', display: 'hotaru.json' }

function failure(text: string): { name: string; data: Record<string, unknown> } {
  try {
    parseJsonc(text, file, [])
  } catch (error) {
    return error as { name: string; data: Record<string, unknown> }
  }
  throw new Error('parsed')
}

describe('config nesting limit', () => {
  it('reports a config nested 100,000 levels deep with its file and JSON path, not a stack overflow', () => {
    const depth = 100_000
    const error = failure(`{"agent": {"build": ${'['.repeat(depth)}${']'.repeat(depth)}}}`)
    expect(error.name).toBe('ConfigInvalid')
    expect(error.data.file).toBe('/p/hotaru.json')
    expect(String(error.data.path)).toMatch(/^agent\.build(\[0\])+$/)
    expect(String(error.data.message)).toContain(`nested deeper than ${MAX_CONFIG_NESTING} levels`)
  })

  it('names object keys on the way down, and accepts ordinary nesting', () => {
    const deep = `${'{"a": '.repeat(80)}1${'}'.repeat(80)}`
    expect(String(failure(deep).data.path)).toBe(Array.from({ length: MAX_CONFIG_NESTING }, () => 'a').join('.'))
    expect(parseJsonc('{"permission": {"bash": {"git *": "allow"}}, "x": [[1, 2], {"y": [3]}]}', file, [])).toEqual({
      permission: { bash: { 'git *': 'allow' } },
      x: [[1, 2], { y: [3] }],
    })
  })
})
