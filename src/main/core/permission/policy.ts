import type { RuleInEffect } from '@shared/schema/permission-rules'
import type { PermissionFloor, PermissionLayerRules } from '../config/load'
import type { ProjectConfigSnapshot } from '../config/project-config'
import type { PermissionConfig } from '../config/schema'
import { loadAgentFiles, loadCustomTools, type AgentFile } from '../extensions'
import { rulesFromConfig } from './config-rules'
import { agentDefaultRules } from './defaults'
import type { Rule } from './rule'
import { floorRulesets } from './ruleset'

const LAYER_OF: Record<PermissionLayerRules['source']['kind'], RuleInEffect['layer']> = {
  global: 'user',
  project: 'project',
  'dot-hotaru': 'project',
  env: 'env',
  managed: 'managed',
}

/** An agent file's own rules (`permission` in its front matter), in the order the files apply. */
export interface AgentFileRules {
  name: string
  file: string
  permission?: PermissionConfig
}

/** Everything the rules in force for a project depend on; the same input for the runtime and for Settings. */
export interface PolicyInput {
  /** The config layers as loaded, lowest precedence first (trust applied). */
  layers: readonly PermissionLayerRules[]
  /** Deny rules of the user's own and the managed config. */
  floors: readonly PermissionFloor[]
  /** Agent files, in the order they apply (the user's first, the project's last). */
  agentFiles: readonly AgentFileRules[]
  /** Custom and MCP tools: they run code nobody has reviewed, so they ask unless a rule says otherwise. */
  tools: readonly { id: string }[]
}

/** What the permission engine checks a call of `agent` against. */
export interface EnforcedRules {
  /** Lowest precedence first: the last matching rule wins. */
  ruleset: Rule[]
  /** Each evaluated on its own: a `deny` in one holds whatever the ruleset or a remembered approval says. */
  floors: Rule[][]
}

/**
 * The permission rules in force for `agent` in a project, lowest precedence first, each with where it came
 * from: the agent's built-in defaults, the custom and MCP tools (ask), every config layer's `permission`, every
 * config layer's `agent.<agent>.permission`, then the agent's files. The layers are concatenated, which is what
 * the merged config means (a later layer's key moves to the end, see `mergeConfig`). In a folder that is not
 * trusted, its own `allow` rules are listed as `untrusted` and do not apply; `deny` rules of the user's own and
 * the managed layers are marked `floor`: they also hold over later layers.
 */
export function rulesInForce(agent: string, input: PolicyInput): RuleInEffect[] {
  const rules: RuleInEffect[] = agentDefaultRules(agent).map((rule) => ({ ...rule, layer: 'agent' }))
  for (const rule of rulesFromConfig(toolRulesConfig(input.tools))) rules.push({ ...rule, layer: 'tool' })
  const floorLayer = (layer: RuleInEffect['layer']): boolean => layer === 'user' || layer === 'env' || layer === 'managed'
  const fromLayer = (source: PermissionLayerRules, applied: PermissionConfig | undefined, requested: PermissionConfig | undefined, forAgent?: string): void => {
    const layer = LAYER_OF[source.source.kind]
    const extra = { layer, file: source.source.file, ...(forAgent ? { agent: forAgent } : {}) }
    if (requested) {
      // Narrowing only withholds `allow` rules: the others are the applied ones, in the file's order.
      for (const rule of rulesFromConfig(requested)) rules.push({ ...rule, ...extra, ...(rule.action === 'allow' ? { untrusted: true } : {}) })
      return
    }
    for (const rule of rulesFromConfig(applied)) rules.push({ ...rule, ...extra, ...(rule.action === 'deny' && floorLayer(layer) ? { floor: true } : {}) })
  }
  for (const layer of input.layers) fromLayer(layer, layer.permission, layer.requested?.permission)
  for (const layer of input.layers) fromLayer(layer, layer.agent?.[agent], layer.requested ? layer.requested.agent?.[agent] : undefined, agent)
  for (const file of input.agentFiles) {
    if (file.name !== agent) continue
    for (const rule of rulesFromConfig(file.permission)) rules.push({ ...rule, layer: 'agent-file', file: file.file })
  }
  return rules
}

/** The rules the permission engine enforces for `agent`: exactly those `rulesInForce` lists, less the untrusted ones. */
export function enforcedRules(agent: string, input: PolicyInput): EnforcedRules {
  return {
    ruleset: rulesInForce(agent, input)
      .filter((rule) => !rule.untrusted)
      .map(({ permission, pattern, action }) => ({ permission, pattern, action })),
    floors: floorRulesets(agent, input.floors),
  }
}

function toolRulesConfig(tools: readonly { id: string }[]): PermissionConfig {
  return Object.fromEntries(tools.map((tool) => [tool.id, 'ask' as const]))
}

/** The policy's input from a loaded config and the extensions a turn loaded (agent files, custom and MCP tools). */
export function policyInput(
  snapshot: Pick<ProjectConfigSnapshot, 'permissionLayers' | 'floors'>,
  agentFiles: readonly AgentFile[],
  tools: readonly { id: string }[],
): PolicyInput {
  return {
    layers: snapshot.permissionLayers,
    floors: snapshot.floors,
    agentFiles: agentFiles.map((file) => ({ name: file.name, file: file.file, permission: file.override.permission })),
    tools,
  }
}

/**
 * The policy's input as a turn starting now would see it: the agent files and custom tools are read as a turn
 * reads them (trust applied), the MCP tools are those connected now. For Settings, which has no turn.
 */
export async function loadPolicyInput(
  snapshot: Pick<ProjectConfigSnapshot, 'permissionLayers' | 'floors' | 'locations' | 'trust'>,
  mcpTools: readonly { id: string }[],
): Promise<PolicyInput> {
  const trusted = snapshot.trust.trusted
  const [agentFiles, custom] = await Promise.all([
    loadAgentFiles({ ...snapshot.locations, restrictProject: !trusted }),
    loadCustomTools({ ...snapshot.locations, projectTools: trusted }),
  ])
  return policyInput(snapshot, agentFiles.agents, [...custom.tools, ...mcpTools])
}
