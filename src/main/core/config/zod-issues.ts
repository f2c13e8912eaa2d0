import type { z } from 'zod'
import { type ConfigIssue, formatJsonPath } from './config-error'

type Issue = z.core.$ZodIssue

/** The JSON kind of a value: `string`, `number`, `object`, `array`, `null`… */
function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/**
 * Kind plus value for scalars the user chose from a fixed set (`string "alow"`), so a
 * typo is visible. Not used for type errors, where the value could be a secret.
 */
function describeChoice(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return `${typeof value} ${JSON.stringify(value)}`
  }
  return kindOf(value)
}

const EXPECTED_WORDS: Record<string, string> = { record: 'object', int: 'integer', map: 'object' }

function expectedWord(expected: string): string {
  return EXPECTED_WORDS[expected] ?? expected
}

function choices(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(' | ')
}

/**
 * True when a union branch failed only because the value is of another kind
 * altogether (a string given to the object branch, or an object to the enum branch);
 * such branches say nothing useful about what the user meant.
 */
function isKindMismatch(branch: readonly Issue[]): boolean {
  const first = branch[0]
  if (!first || first.path.length > 0) return false
  if (first.code === 'invalid_type') return true
  if (first.code === 'invalid_value') return !first.values.some((v) => kindOf(v) === kindOf(first.input))
  return false
}

function expectationOf(branch: readonly Issue[]): string | undefined {
  const first = branch[0]
  if (!first) return undefined
  if (first.code === 'invalid_type') return expectedWord(first.expected)
  if (first.code === 'invalid_value') return choices(first.values)
  return undefined
}

function sizeMessage(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>): string {
  const small = issue.code === 'too_small'
  const bound = small ? issue.minimum : issue.maximum
  const inclusive = issue.inclusive !== false
  if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') {
    const relation = small ? (inclusive ? 'at least' : 'greater than') : inclusive ? 'at most' : 'less than'
    return `must be ${relation} ${String(bound)}, got ${describeChoice(issue.input)}`
  }
  if (small && Number(bound) === 1 && inclusive) return 'must not be empty'
  const unit = issue.origin === 'string' ? 'characters' : 'items'
  return `must have ${small ? 'at least' : 'at most'} ${String(bound)} ${unit}`
}

/**
 * Rewrites zod's issues into short messages that point at the user's JSON:
 * `expected number, got string`, `unknown key "modle"`, `expected "allow" | "ask" | "deny", got string "alow"`.
 * Unknown keys get the key itself in the path so the path points at the typo.
 */
export function toConfigIssues(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): ConfigIssue[] {
  return issues.flatMap((issue) => toConfigIssue(issue, [...prefix, ...issue.path]))
}

function toConfigIssue(issue: Issue, path: PropertyKey[]): ConfigIssue[] {
  const at = formatJsonPath(path)
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return [{ path: at, message: `is required (expected ${expectedWord(issue.expected)})` }]
      return [{ path: at, message: `expected ${expectedWord(issue.expected)}, got ${kindOf(issue.input)}` }]
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ path: formatJsonPath([...path, key]), message: `unknown key "${key}"` }))
    case 'invalid_key':
      return [{ path: at, message: `invalid key: ${toConfigIssues(issue.issues).map((i) => i.message).join('; ')}` }]
    case 'invalid_element':
      return [{ path: at, message: `invalid element: ${toConfigIssues(issue.issues).map((i) => i.message).join('; ')}` }]
    case 'invalid_value':
      return [{ path: at, message: `expected ${choices(issue.values)}, got ${describeChoice(issue.input)}` }]
    case 'invalid_union':
      return unionIssue(issue, path)
    case 'too_small':
    case 'too_big':
      return [{ path: at, message: sizeMessage(issue) }]
    case 'not_multiple_of':
      return [{ path: at, message: `must be a multiple of ${issue.divisor}, got ${describeChoice(issue.input)}` }]
    // A format check (regex, URL) or a refinement: our schemas word these themselves for the user.
    case 'invalid_format':
    case 'custom':
      return [{ path: at, message: issue.message }]
  }
}

function unionIssue(issue: Extract<Issue, { code: 'invalid_union' }>, path: PropertyKey[]): ConfigIssue[] {
  const at = formatJsonPath(path)
  // A discriminated union whose tag matched no option: zod points at the tag
  // but hands us the whole object as input.
  if ('discriminator' in issue && typeof issue.discriminator === 'string') {
    const options = 'options' in issue && Array.isArray(issue.options) ? choices(issue.options) : 'a known type'
    const input: unknown = issue.input
    const tag = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[issue.discriminator] : undefined
    if (tag === undefined) return [{ path: at, message: `is required (expected ${options})` }]
    return [{ path: at, message: `expected ${options}, got ${describeChoice(tag)}` }]
  }
  const relevant = issue.errors.filter((branch) => !isKindMismatch(branch))
  const chosen = relevant[0]
  if (chosen) return toConfigIssues(chosen, path)
  const expected = issue.errors.map(expectationOf).filter((e): e is string => e !== undefined)
  if (expected.length === 0) return [{ path: at, message: issue.message }]
  return [{ path: at, message: `expected ${[...new Set(expected)].join(' or ')}, got ${kindOf(issue.input)}` }]
}
