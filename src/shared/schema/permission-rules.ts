import { z } from 'zod'

/** Where a rule comes from: the agent's built-ins, or a config layer. */
export const PermissionLayer = z.enum(['agent', 'user', 'project', 'env', 'managed'])
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
})
export type RuleInEffect = z.infer<typeof RuleInEffect>

export const RememberedApproval = z.object({
  permission: z.string(),
  pattern: z.string(),
  scope: z.enum(['turn', 'session', 'project', 'persisted']),
  sessionId: z.string().optional(),
})
export type RememberedApproval = z.infer<typeof RememberedApproval>
