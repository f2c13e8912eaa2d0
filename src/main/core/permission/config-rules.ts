import { homedir } from 'node:os'
import type { PermissionConfig } from '../config/schema'
import { Permission } from './names'
import { realPathOf } from './paths'
import type { Rule } from './rule'

const HOME_PREFIX = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/

/**
 * `~`, `~/…`, `$HOME/…` and `${HOME}/…` at the start of a path pattern become the
 * home directory (as the real path, since checked paths are real paths). `bash`
 * patterns are command text and stay as written.
 */
export function expandPatternHome(permission: string, pattern: string): string {
  if (permission === Permission.Bash || !HOME_PREFIX.test(pattern)) return pattern
  return pattern.replace(HOME_PREFIX, () => realPathOf(homedir()))
}

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
    for (const [pattern, action] of Object.entries(value)) {
      rules.push({ permission, pattern: expandPatternHome(permission, pattern), action })
    }
  }
  return rules
}
