import { z } from 'zod'
import { ProjectId } from '../schema/project'
import type { DomainContract } from './define'

/** The OS sandbox of a project as the settings page shows it. */
export const SandboxStatus = z.object({
  enabled: z.boolean(),
  autoAllow: z.boolean(),
  allowUnsandboxedRetry: z.boolean(),
  platform: z.string(),
  backend: z.enum(['bubblewrap', 'seatbelt', 'none']),
  available: z.boolean(),
  problem: z.string().optional(),
  installHint: z.string().optional(),
  dependencies: z.array(z.object({ name: z.string(), found: z.boolean(), path: z.string().optional(), note: z.string().optional() })),
  writable: z.array(z.string()),
  protectedWrites: z.array(z.string()),
  denyRead: z.array(z.string()),
  network: z.union([z.object({ mode: z.literal('none') }), z.object({ mode: z.literal('proxy'), allowedDomains: z.array(z.string()) })]),
  /**
   * What the user's own config says (`sandbox.enabled`, off when unset) and its file: the settings switch writes
   * it. `enabled` can differ when another layer decides (a project may switch it on, the administrator either way).
   */
  user: z.object({ enabled: z.boolean(), file: z.string() }).optional(),
})
export type SandboxStatus = z.infer<typeof SandboxStatus>

export const sandboxContract = {
  methods: {
    /** The effective sandbox settings of a project and what this machine offers. */
    status: { input: z.object({ projectId: ProjectId }).strict(), output: SandboxStatus },
    /** Switches the sandbox on or off in the user's own config (comments kept) and answers the project's new status. */
    setEnabled: { input: z.object({ projectId: ProjectId, enabled: z.boolean() }).strict(), output: SandboxStatus },
  },
  events: {},
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'SandboxUnavailable', 'ProjectNotOpen', 'ConfigInvalid',
  ],
} satisfies DomainContract<'sandbox'>
