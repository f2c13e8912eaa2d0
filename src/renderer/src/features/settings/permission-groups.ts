import type { RuleInEffect } from '@shared/schema/permission-rules'

export interface ToolRules {
  permission: string
  /** Lowest precedence first; the last matching rule wins. */
  rules: (RuleInEffect & { overridden: boolean })[]
}

/**
 * Rules grouped per tool, in the order they apply. A rule is marked
 * overridden when a later rule of the same tool has the same pattern (it can
 * never be the last match), unless it is a floor (a user or managed deny holds anyway).
 */
export function groupRules(rules: readonly RuleInEffect[]): ToolRules[] {
  const byTool = new Map<string, RuleInEffect[]>()
  for (const rule of rules) byTool.set(rule.permission, [...(byTool.get(rule.permission) ?? []), rule])
  return [...byTool.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([permission, list]) => ({
      permission,
      rules: list.map((rule, i) => ({ ...rule, overridden: rule.floor !== true && list.slice(i + 1).some((later) => later.pattern === rule.pattern) })),
    }))
}
