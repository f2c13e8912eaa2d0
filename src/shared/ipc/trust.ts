import { z } from 'zod'
import { ProjectId } from '../schema/project'
import type { DomainContract } from './define'

/** One thing an untrusted folder asked for and did not get. */
export const WithheldItem = z.object({
  kind: z.enum(['mcp', 'tool', 'hook', 'permission', 'provider', 'shell', 'agent', 'placeholder']),
  /** The file that asked for it. */
  file: z.string(),
  /** Exactly what: the command line, the tool file, the hook command, the rule, the setting. */
  detail: z.string(),
})
export type WithheldItem = z.infer<typeof WithheldItem>

export const TrustStatus = z.object({
  projectId: ProjectId,
  /** The project folder (canonical). */
  path: z.string(),
  trusted: z.boolean(),
  /** The folder whose decision applies (the project or a parent); absent while nobody decided. */
  decidedBy: z.string().optional(),
  /** What restricted mode withholds now; empty when trusted or when the folder brings nothing. */
  withheld: z.array(WithheldItem),
})
export type TrustStatus = z.infer<typeof TrustStatus>

export const TrustDecision = z.object({ path: z.string(), trusted: z.boolean(), decidedAt: z.number() })
export type TrustDecision = z.infer<typeof TrustDecision>

export const trustContract = {
  methods: {
    /** Whether the project is trusted and, when not, everything it would run or change. */
    status: { input: z.object({ projectId: ProjectId }).strict(), output: TrustStatus },
    /** Trust (`true`) or keep restricted (`false`) the project's folder; applies at once to open projects below it. */
    decide: { input: z.object({ projectId: ProjectId, trusted: z.boolean() }).strict(), output: TrustStatus },
    /** Every stored decision. */
    list: { input: z.object({}).strict(), output: z.array(TrustDecision) },
    /** Forgets the decision on exactly this folder (a parent's may still apply). */
    revoke: { input: z.object({ path: z.string().min(1).max(4096) }).strict(), output: z.object({ removed: z.boolean() }) },
  },
  events: {
    /**
     * A decision changed, or a folder's own config or extension files did (so what it withholds may have):
     * `projectIds` are the open projects affected; their status should be re-read.
     */
    changed: z.object({ path: z.string(), trusted: z.boolean().optional(), projectIds: z.array(ProjectId) }),
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'NotFound', 'ProjectNotOpen',
  ],
} satisfies DomainContract<'trust'>
