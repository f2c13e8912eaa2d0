import { z } from 'zod'

/**
 * Where a rule comes from: the agent's built-ins, the custom and MCP tools (they ask), a config layer, or an agent
 * file (`.hotaru/agents/*.md`, the user's agents folder).
 */
export const PermissionLayer = z.enum(['agent', 'tool', 'user', 'project', 'env', 'managed', 'agent-file'])
export type PermissionLayer = z.infer<typeof PermissionLayer>

export const PermissionActionName = z.enum(['allow', 'ask', 'deny'])

export const RuleInEffect = z.object({
  permission: z.string(),
  pattern: z.string(),
  action: PermissionActionName,
  layer: PermissionLayer,
  /** The config file (absent for the agent's built-in rules). */
  file: z.string().optional(),
  /** An `allow` of the folder's own config while the folder is not trusted: listed, but it does not apply. */
  untrusted: z.boolean().optional(),
  /** Set for a config layer's `agent.<name>.permission` rule: it applies to that agent only. */
  agent: z.string().optional(),
  /** A `deny` of the user's own or the managed config: it holds whatever a later rule or a remembered approval says. */
  floor: z.boolean().optional(),
})
export type RuleInEffect = z.infer<typeof RuleInEffect>

export const RememberedApproval = z.object({
  permission: z.string(),
  pattern: z.string(),
  scope: z.enum(['turn', 'session', 'project', 'persisted']),
  sessionId: z.string().optional(),
})
export type RememberedApproval = z.infer<typeof RememberedApproval>
