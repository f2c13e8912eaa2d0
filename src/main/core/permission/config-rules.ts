import type { PermissionConfig } from '../config/schema'
import type { Rule } from './rule'

/**
 * Turns the config shape `{ "<permission>": action | { "<pattern>": action } }` into
 * rules. Object key order is rule order, so the merged config's key order (later
 * layers' keys last) gives "later layer wins".
 */
export function rulesFromConfig(config: PermissionConfig | undefined): Rule[] {
  if (!config) return []
  const rules: Rule[] = []
  for (const [permission, value] of Object.entries(config)) {
    if (value === undefined) continue
    if (typeof value === 'string') {
      rules.push({ permission, pattern: '*', action: value })
      continue
    }
    for (const [pattern, action] of Object.entries(value)) rules.push({ permission, pattern, action })
  }
  return rules
}
