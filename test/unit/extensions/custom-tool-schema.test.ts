import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { adaptParameters } from '../../../src/main/core/extensions/custom-tool-schema'
import { customToolRules, defaultReservedIds, sanitizeToolId, toolsOfModule } from '../../../src/main/core/extensions/custom-tools'
import { esModuleExports } from '../../../src/main/core/extensions/custom-tool-import'
import { formatZodIssues } from '../../../src/main/core/tools'

function issuesOf(schema: z.ZodType, value: unknown): string {
  const parsed = schema.safeParse(value)
  if (parsed.success) throw new Error('expected a failure')
  return formatZodIssues(parsed.error)
}

describe('adaptParameters', () => {
  it('validates with a zod schema and sends its JSON schema', () => {
    const { parameters, inputSchema } = adaptParameters(z.object({ path: z.string(), depth: z.number().default(1) }))
    expect(inputSchema).toMatchObject({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] })
    expect(inputSchema).not.toHaveProperty('$schema')
    expect(parameters.parse({ path: 'a' })).toEqual({ path: 'a', depth: 1 })
    expect(issuesOf(parameters, { path: 1 })).toMatch(/^- path: /)
  })

  it('sends a JSON schema as is and checks only the object and its required keys', () => {
    const schema = { $schema: 'x', type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }
    const { parameters, inputSchema } = adaptParameters(schema)
    expect(inputSchema).toEqual({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] })
    expect(parameters.parse({ q: 1, extra: true })).toEqual({ q: 1, extra: true })
    expect(issuesOf(parameters, {})).toBe('- q: required')
    expect(issuesOf(parameters, [])).toBe('- (arguments): expected an object of arguments')
  })

  it('takes an object of zod schemas per argument', () => {
    const { parameters, inputSchema } = adaptParameters({ text: z.string(), n: z.number().optional() })
    expect(inputSchema).toMatchObject({ type: 'object', required: ['text'], additionalProperties: false })
    expect(parameters.parse({ text: 'a', other: 1 })).toEqual({ text: 'a' })
    expect(issuesOf(parameters, { n: 'x' })).toMatch(/- text: .*\n- n: /)
  })

  it('means no arguments when absent', () => {
    const { parameters, inputSchema } = adaptParameters(undefined)
    expect(inputSchema).toEqual({ type: 'object', properties: {} })
    expect(parameters.parse({})).toEqual({})
  })

  it.each([
    [z.string(), /must describe an object/],
    [{ type: 'array' }, /must have type "object"/],
    [{ a: z.string(), b: 'nope' }, /not zod: b/],
    [42, /must be a zod schema, a JSON schema/],
    [{ safeParse: () => ({ success: true }) }, /not a zod 4 schema/],
  ])('refuses %#', (value, error) => {
    expect(() => adaptParameters(value)).toThrow(error)
  })
})

describe('custom tool helpers', () => {
  it('sanitizes ids', () => {
    expect(sanitizeToolId('my.tool name')).toBe('my_tool_name')
    expect(sanitizeToolId('x'.repeat(80))).toHaveLength(64)
  })

  it('reserves the built-in ids', () => {
    const reserved = defaultReservedIds()
    for (const id of ['read', 'bash', 'task', 'memory', 'skill']) expect(reserved.has(id)).toBe(true)
  })

  it('makes one ask rule per tool', () => {
    expect(customToolRules([{ id: 'a' }, { id: 'b' }])).toEqual([
      { permission: 'a', pattern: '*', action: 'ask' },
      { permission: 'b', pattern: '*', action: 'ask' },
    ])
  })

  it('turns exports into tools, once per definition, ignoring other exports', () => {
    const def = { description: 'd', execute: () => 'x' }
    const { tools, errors } = toolsOfModule('/p/.hotaru/tools/file.mjs', { default: def, same: def, other: { ...def }, VERSION: 3, helper: () => 1 })
    expect(errors).toEqual([])
    expect(tools.map((t) => [t.tool.id, t.exportName])).toEqual([
      ['file', 'default'],
      ['file_other', 'other'],
    ])
  })

  it('unwraps the exports of a module run as CommonJS', () => {
    const exports = Object.defineProperty({ default: 1, named: 2 }, '__esModule', { value: true })
    expect(esModuleExports({ default: exports })).toBe(exports)
    const plain = { default: { description: 'x' } }
    expect(esModuleExports(plain)).toBe(plain)
  })
})
