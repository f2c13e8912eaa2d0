import { z } from 'zod'

/**
 * A custom tool's parameters as the tool layer needs them: a zod schema of ours that
 * validates (so `runTool` reports bad arguments the usual way) and the JSON schema
 * sent to the provider. Tool files import their own copy of zod, so their schemas
 * are recognised by shape (`safeParse`), never by `instanceof`.
 */
export interface AdaptedParameters {
  parameters: z.ZodType
  inputSchema: Record<string, unknown>
}

interface ForeignIssue {
  path?: ReadonlyArray<PropertyKey>
  message?: string
}

interface SafeParser {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: { issues?: ReadonlyArray<ForeignIssue> } }
}

export function isSafeParser(value: unknown): value is SafeParser {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { safeParse?: unknown }).safeParse === 'function'
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** JSON schema of a zod 4 schema from any copy of zod; older zod has no `_zod` and no converter we can use. */
function zodToJsonSchema(schema: SafeParser, what: string): Record<string, unknown> {
  if (!('_zod' in schema)) throw new Error(`${what} is not a zod 4 schema (zod 3 schemas cannot be converted): use zod 4 or a JSON schema`)
  let json: Record<string, unknown>
  try {
    json = z.toJSONSchema(schema as unknown as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  } catch (error) {
    throw new Error(`${what} cannot be converted to JSON schema: ${(error as Error).message}`, { cause: error })
  }
  const { $schema: _drop, ...rest } = json
  return rest
}

/** Our zod schema that runs `check` and turns its issues into zod issues (path included). */
function validating(check: (value: unknown) => { ok: true; data: unknown } | { ok: false; issues: ForeignIssue[] }): z.ZodType {
  return z.unknown().transform((value, ctx) => {
    const outcome = check(value)
    if (outcome.ok) return outcome.data
    for (const issue of outcome.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message ?? 'invalid value', path: [...(issue.path ?? [])] })
    }
    return z.NEVER
  })
}

function fromZod(schema: SafeParser): AdaptedParameters {
  const inputSchema = zodToJsonSchema(schema, 'parameters')
  if (inputSchema.type !== 'object') throw new Error('parameters must describe an object (z.object({...}))')
  return {
    inputSchema,
    parameters: validating((value) => {
      const result = schema.safeParse(value)
      return result.success ? { ok: true, data: result.data } : { ok: false, issues: [...(result.error?.issues ?? [{ message: 'invalid arguments' }])] }
    }),
  }
}

/** `{ name: z.string(), count: z.number().optional() }`: the form other agents' tool helpers use for `args`. */
function fromShape(shape: Record<string, SafeParser>): AdaptedParameters {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const [key, schema] of Object.entries(shape)) {
    properties[key] = zodToJsonSchema(schema, `parameter "${key}"`)
    // A key may be left out when its schema accepts `undefined`; this works with any zod.
    if (!schema.safeParse(undefined).success) required.push(key)
  }
  return {
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
    parameters: validating((value) => {
      if (!isPlainObject(value)) return { ok: false, issues: [{ message: 'expected an object of arguments' }] }
      const data: Record<string, unknown> = {}
      const issues: ForeignIssue[] = []
      for (const [key, schema] of Object.entries(shape)) {
        const result = schema.safeParse(value[key])
        if (result.success) {
          if (result.data !== undefined) data[key] = result.data
        } else {
          for (const issue of result.error?.issues ?? [{ message: 'invalid value' }]) issues.push({ ...issue, path: [key, ...(issue.path ?? [])] })
        }
      }
      return issues.length === 0 ? { ok: true, data } : { ok: false, issues }
    }),
  }
}

/** A JSON schema is sent as is; we only check that the arguments are an object with the required keys. */
function fromJsonSchema(schema: Record<string, unknown>): AdaptedParameters {
  const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : []
  const { $schema: _drop, ...inputSchema } = schema
  return {
    inputSchema,
    parameters: validating((value) => {
      if (!isPlainObject(value)) return { ok: false, issues: [{ message: 'expected an object of arguments' }] }
      const missing = required.filter((k) => !Object.hasOwn(value, k))
      if (missing.length > 0) return { ok: false, issues: missing.map((k) => ({ path: [k], message: 'required' })) }
      return { ok: true, data: value }
    }),
  }
}

/**
 * Adapts what a tool file gave as `parameters` (or `args`): a zod object schema, a
 * JSON schema with `type: "object"`, or an object of zod schemas per argument.
 * Absent means no arguments. Throws with a message for the user otherwise.
 */
export function adaptParameters(value: unknown): AdaptedParameters {
  if (value === undefined) return fromJsonSchema({ type: 'object', properties: {} })
  if (isSafeParser(value)) return fromZod(value)
  if (!isPlainObject(value)) throw new Error('parameters must be a zod schema, a JSON schema with type "object", or an object of zod schemas')
  if ('type' in value) {
    if (value.type !== 'object') throw new Error(`a JSON schema for parameters must have type "object", not ${JSON.stringify(value.type)}`)
    return fromJsonSchema(value)
  }
  const entries = Object.entries(value)
  const notZod = entries.filter(([, v]) => !isSafeParser(v)).map(([k]) => k)
  if (notZod.length > 0) {
    throw new Error(`parameters is neither a JSON schema (no "type": "object") nor an object of zod schemas (not zod: ${notZod.join(', ')})`)
  }
  return fromShape(Object.fromEntries(entries) as Record<string, SafeParser>)
}
