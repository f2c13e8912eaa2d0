import { z } from 'zod'
import { EffortSchema } from '../schema/effort'
import { ProjectId } from '../schema/project'
import { Message, MessageId, MessageWithParts, Part, PartId, Session, SessionId, SessionStatus } from '../schema/session'
import { ImageId, ImageMediaType } from '../schema/image'
import type { DomainContract } from './define'

/** Every session event carries the session and its per-session `seq` (gap → reload that session). */
const sessionEvent = <T extends z.ZodRawShape>(shape: T) => z.object({ sessionId: SessionId, seq: z.number().int(), ...shape })

export const sessionContract = {
  methods: {
    create: {
      input: z
        .object({
          projectId: ProjectId,
          agent: z.string().min(1).max(64).optional(),
          model: z.string().max(200).optional(),
          effort: EffortSchema.optional(),
        })
        .strict(),
      output: Session,
    },
    /** Newest first; subagent runs are left out unless `includeChildren`. */
    list: {
      input: z
        .object({
          projectId: ProjectId,
          search: z.string().max(200).optional(),
          limit: z.number().int().min(1).max(1000).optional(),
          includeChildren: z.boolean().optional(),
        })
        .strict(),
      output: z.array(Session),
    },
    get: { input: z.object({ sessionId: SessionId }).strict(), output: Session },
    messages: { input: z.object({ sessionId: SessionId }).strict(), output: z.array(MessageWithParts) },
    rename: { input: z.object({ sessionId: SessionId, title: z.string().trim().min(1).max(200) }).strict(), output: Session },
    delete: { input: z.object({ sessionId: SessionId }).strict(), output: z.object({ deleted: z.boolean() }) },
    /** The session's current status (idle, busy, retrying). */
    status: { input: z.object({ sessionId: SessionId }).strict(), output: z.object({ status: SessionStatus }) },
    /** The project's sessions with a turn running (busy or retrying), e.g. for a page that loads mid-turn. */
    running: {
      input: z.object({ projectId: ProjectId }).strict(),
      output: z.array(z.object({ sessionId: SessionId, status: SessionStatus })),
    },
    /** The bytes of an image attached to one of the session's messages (base64), to show it. */
    image: {
      input: z.object({ sessionId: SessionId, imageId: ImageId }).strict(),
      output: z.object({ mediaType: ImageMediaType, data: z.string() }),
    },
    /** The whole output of a tool call whose result was cut for the model (saved under the data dir). */
    toolOutput: {
      input: z.object({ sessionId: SessionId, partId: PartId }).strict(),
      output: z.object({ text: z.string(), truncated: z.boolean() }),
    },
  },
  events: {
    updated: sessionEvent({ session: Session }),
    deleted: sessionEvent({}),
    message: sessionEvent({ message: Message }),
    part: sessionEvent({ part: Part }),
    delta: sessionEvent({ messageId: MessageId, partId: PartId, field: z.literal('text'), delta: z.string() }),
    partRemoved: sessionEvent({ messageId: MessageId, partId: PartId }),
    truncated: sessionEvent({ fromMessageId: MessageId }),
    status: z.object({ sessionId: SessionId, status: SessionStatus }),
    /** The session's todo list changed (todowrite). */
    todos: z.object({
      sessionId: SessionId,
      todos: z.array(z.object({ id: z.string().optional(), content: z.string(), status: z.string(), priority: z.string().optional() }).loose()),
    }),
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'SessionNotFound', 'SessionBusy', 'ProjectBusy', 'NotFound', 'ProjectNotOpen', 'NothingToCompact',
    'CompactionFailed', 'CompactionBusy', 'StorageFull', 'StorageUnavailable', 'ProviderAuth',
    'ProviderRateLimit', 'ProviderBilling', 'ProviderOverloaded', 'ProviderServer', 'ProviderBadRequest',
    'ProviderConnection', 'ProviderBadResponse', 'ProviderStreamInterrupted', 'ContextOverflow', 'ProviderUnknown',
  ],
} satisfies DomainContract<'session'>
