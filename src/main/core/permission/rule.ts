import type { PermissionAction } from '../config/schema'

export type { PermissionAction }

/** One permission rule. In a ruleset the last rule matching both permission and pattern wins. */
export interface Rule {
  permission: string
  pattern: string
  action: PermissionAction
}

export type Ruleset = readonly Rule[]

const compiled = new Map<string, RegExp>()

function compile(pattern: string): RegExp {
  const cached = compiled.get(pattern)
  if (cached) return cached
  // A trailing " *" also matches the bare prefix, so `git status *` covers `git status`.
  const optionalTail = pattern.endsWith(' *')
  const body = optionalTail ? pattern.slice(0, -2) : pattern
  let source = ''
  for (const ch of body) {
    if (ch === '*') source += '.*'
    else if (ch === '?') source += '.'
    else source += ch.replace(/[\\^$+.()|[\]{}]/g, '\\$&')
  }
  if (optionalTail) source += '(?: .*)?'
  const regex = new RegExp(`^${source}$`, 's')
  if (compiled.size > 5000) compiled.clear()
  compiled.set(pattern, regex)
  return regex
}

/**
 * Wildcard match: `*` is any run of characters (slashes and newlines included), `?`
 * is one character, everything else is literal. A pattern ending in ` *` also
 * matches the text without that tail.
 */
export function wildcardMatch(value: string, pattern: string): boolean {
  if (pattern === '*') return true
  return compile(pattern).test(value)
}

/**
 * The pattern of a `bash` rule about every read-only command: it matches a command the
 * table of read-only commands (`shell/validators.ts`) vouches for — every option known
 * to only read — and nothing else. `"bash": {"@read-only": "allow"}`.
 */
export const READ_ONLY_PATTERN = '@read-only'

function ruleMatches(rule: Rule, permission: string, pattern: string, readOnly: boolean): boolean {
  if (!wildcardMatch(permission, rule.permission)) return false
  if (rule.pattern === READ_ONLY_PATTERN) return readOnly
  return wildcardMatch(pattern, rule.pattern)
}

/** The last rule matching `permission` and `pattern` across the rulesets in order, if any. */
export function findRule(permission: string, pattern: string, ...rulesets: Ruleset[]): Rule | undefined {
  return findRuleOf(permission, pattern, false, rulesets)
}

/** `findRule` for a pattern that is (or is not) a read-only command, which `@read-only` rules match. */
export function findRuleOf(permission: string, pattern: string, readOnly: boolean, rulesets: readonly Ruleset[]): Rule | undefined {
  for (let s = rulesets.length - 1; s >= 0; s--) {
    const rules = rulesets[s] ?? []
    for (let i = rules.length - 1; i >= 0; i--) {
      const rule = rules[i]
      if (rule && ruleMatches(rule, permission, pattern, readOnly)) return rule
    }
  }
  return undefined
}

/** The action for one permission + pattern: the last matching rule's, or `ask` when nothing matches. */
export function evaluate(permission: string, pattern: string, ...rulesets: Ruleset[]): PermissionAction {
  return findRule(permission, pattern, ...rulesets)?.action ?? 'ask'
}
