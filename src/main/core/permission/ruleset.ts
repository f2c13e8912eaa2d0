import type { Config, PermissionConfig } from '../config/schema'
import { rulesFromConfig } from './config-rules'
import { agentDefaultRules } from './defaults'
import type { Rule } from './rule'

/**
 * The configured rules of an agent, in evaluation order: the agent's defaults, then
 * the effective config's `permission` (global merged with project, later keys last),
 * then the agent's own `agent.<name>.permission`. Remembered approvals are added
 * by the `PermissionService`.
 */
export function buildRuleset(agent: string, config: Pick<Config, 'permission' | 'agent'> = {}): Rule[] {
  return [
    ...agentDefaultRules(agent),
    ...rulesFromConfig(config.permission),
    ...rulesFromConfig(config.agent?.[agent]?.permission),
  ]
}

/** The same from separate layers (e.g. global and project kept apart), in the order given. */
export function rulesetFromLayers(agent: string, layers: ReadonlyArray<PermissionConfig | undefined>): Rule[] {
  return [...agentDefaultRules(agent), ...layers.flatMap((layer) => rulesFromConfig(layer))]
}

/** One floor of `floorRulesets`: the permission rules of the user's own or the managed config. */
export interface PermissionFloorConfig {
  permission?: PermissionConfig
  agent?: Record<string, PermissionConfig | undefined>
}

/**
 * The user's own and the managed config's rules for `agent`, each as its own ruleset:
 * a `deny` in one of them holds whatever a project layer, an agent file or a remembered
 * approval says (see `decide`). Their `allow`s lift nothing: they are only checked for denies.
 */
export function floorRulesets(agent: string, floors: readonly PermissionFloorConfig[]): Rule[][] {
  return floors
    .map((floor) => [...rulesFromConfig(floor.permission), ...rulesFromConfig(floor.agent?.[agent])])
    .filter((rules) => rules.length > 0)
}
