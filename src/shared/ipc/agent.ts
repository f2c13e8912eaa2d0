import { z } from 'zod'
import { EffortSchema } from '../schema/effort'
import { ProjectId } from '../schema/project'
import { MessageId, SessionId } from '../schema/session'
import { ImageUpload, MAX_IMAGES_PER_MESSAGE } from '../schema/image'
import type { DomainContract } from './define'

export const AgentSummary = z.object({
  name: z.string(),
  description: z.string(),
  mode: z.enum(['primary', 'subagent']),
  model: z.string().optional(),
})
export type AgentSummary = z.infer<typeof AgentSummary>

export const ModelSummary = z.object({
  id: z.string(),
  name: z.string(),
  providerId: z.string(),
  context: z.number(),
  output: z.number(),
  reasoning: z.boolean(),
  images: z.boolean(),
  /** Effort levels the composer offers for this model, in order; empty: nothing to pick (no reasoning, or always on). */
  efforts: z.array(EffortSchema),
  /** The level used when nobody picked one (reasoning on wherever the model supports it). */
  defaultEffort: EffortSchema,
  /** Reasoning is only on or off (no graded effort). */
  effortToggle: z.boolean(),
  /** The provider deprecated the model; `retired` once its end-of-life date has passed. */
  deprecation: z.object({ retiresOn: z.string(), successor: z.string(), retired: z.boolean() }).optional(),
})
export type ModelSummary = z.infer<typeof ModelSummary>

export const agentContract = {
  methods: {
    /**
     * Sends a user message. Answers with the id of the user message once it is in the transcript (at once, or
     * for a message queued behind a running turn, when its turn starts); the turn streams as session events.
     * A turn that ends before adding the message (hook refused it, unknown agent, Stop, session deleted)
     * answers with that error.
     */
    prompt: {
      input: z
        .object({
          sessionId: SessionId,
          /** May be empty when the message carries images. */
          text: z.string().max(1_000_000),
          agent: z.string().min(1).max(64).optional(),
          model: z.string().regex(/^[^/\s]+\/\S+$/, 'provider/model').optional(),
          /** Switches the session's reasoning effort from this message on (remembered with the session). */
          effort: EffortSchema.optional(),
          /** Images attached in the composer; the model must take images (`ModelWithoutVision` otherwise, before anything is stored). */
          images: z.array(ImageUpload).max(MAX_IMAGES_PER_MESSAGE).optional(),
        })
        .strict()
        .refine((input) => input.text.length > 0 || (input.images?.length ?? 0) > 0, { message: 'a message needs text or an image', path: ['text'] }),
      output: z.object({ queued: z.boolean(), messageId: MessageId }),
    },
    abort: { input: z.object({ sessionId: SessionId }).strict(), output: z.object({ aborted: z.boolean() }) },
    agents: { input: z.object({ projectId: ProjectId }).strict(), output: z.array(AgentSummary) },
    models: { input: z.object({}).strict(), output: z.array(ModelSummary) },
    /** `/compact`: summarize the session now, or only up to a message ("summarize up to here"). */
    compact: {
      input: z.object({ sessionId: SessionId, upToMessageId: MessageId.optional() }).strict(),
      output: z.object({ messageId: z.string(), covered: z.number() }),
    },
  },
  events: {
    /** A turn ended (completed, stopped, failed, step limit, refused, answer cut off at the output limit). */
    turnEnded: z.object({
      sessionId: SessionId,
      status: z.enum(['completed', 'aborted', 'error', 'max-turns', 'rejected', 'refused', 'truncated']),
      error: z.object({ name: z.string(), data: z.looseObject({ message: z.string() }) }).optional(),
    }),
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'AgentNotFound', 'SessionNotFound', 'SessionBusy', 'ProjectBusy', 'PromptBlocked', 'TurnHookFailed', 'TurnNotStarted',
    'TurnCancelled', 'Aborted', 'ProjectNotOpen', 'ProjectMissing', 'NotFound', 'ImageUnreadable',
    'ImageUnsupported', 'ImageTooLarge', 'ModelWithoutVision', 'ConfigInvalid', 'ProviderAuth',
    'ProviderRateLimit', 'ProviderBilling', 'ProviderOverloaded', 'ProviderServer', 'ProviderBadRequest',
    'ProviderConnection', 'ProviderBadResponse', 'ProviderStreamInterrupted', 'ContextOverflow', 'ProviderUnknown',
  ],
} satisfies DomainContract<'agent'>
