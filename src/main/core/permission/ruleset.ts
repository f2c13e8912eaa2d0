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
