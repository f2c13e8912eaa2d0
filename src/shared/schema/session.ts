import { z } from 'zod'
import { EffortSchema } from './effort'
import { HookEventName } from './hook-event'
import { StoredImage } from './image'
import { ProjectId } from './project'

export const SessionId = z.string().regex(/^ses_[A-Za-z0-9]{10,40}$/, 'session id')
export const MessageId = z.string().regex(/^msg_[A-Za-z0-9]{10,40}$/, 'message id')
export const PartId = z.string().regex(/^prt_[A-Za-z0-9]{10,40}$/, 'part id')

export const ErrorDataSchema = z.object({
  name: z.string(),
  data: z.looseObject({ message: z.string() }),
})

export const Usage = z.object({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  /** Reasoning tokens, already included in `output`, when the provider reports them. */
  reasoning: z.number().optional(),
})
export type Usage = z.infer<typeof Usage>

export const Session = z.object({
  id: SessionId,
  projectId: ProjectId,
  /** Set for subagent runs (child of the calling session) and forks. */
  parentId: SessionId.nullable(),
  title: z.string(),
  agent: z.string(),
  model: z.string(),
  /** The effort chosen for this session (the composer's picker, `--effort`); absent: config or the model's default. */
  effort: EffortSchema.optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
})
export type Session = z.infer<typeof Session>

export const MessageRole = z.enum(['user', 'assistant'])

export const Message = z.object({
  id: MessageId,
  sessionId: SessionId,
  role: MessageRole,
  agent: z.string(),
  model: z.string(),
  createdAt: z.number(),
  /** Absent while an assistant message is streaming. */
  completedAt: z.number().optional(),
  finish: z.string().optional(),
  usage: Usage.optional(),
  cost: z.number().optional(),
  error: ErrorDataSchema.optional(),
})
export type Message = z.infer<typeof Message>

const partBase = { id: PartId, messageId: MessageId, sessionId: SessionId }

export const ToolStatus = z.enum(['pending', 'running', 'completed', 'error', 'interrupted'])
export type ToolStatus = z.infer<typeof ToolStatus>

export const ToolState = z.object({
  status: ToolStatus,
  input: z.unknown(),
  /** Argument text as streamed (shown while the call is being written). */
  raw: z.string().optional(),
  title: z.string().optional(),
  output: z.string().optional(),
  error: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  /** Set when the output was pruned to save context: the model is sent a placeholder, the UI still shows it. */
  compactedAt: z.number().optional(),
})
export type ToolState = z.infer<typeof ToolState>

export { HookEventName } from './hook-event'
/** A hook that failed, timed out or could not run; failures do not block. */
export const HookFailure = z.object({ command: z.string(), error: z.string() })
export type HookFailure = z.infer<typeof HookFailure>

export const Part = z.discriminatedUnion('type', [
  z.object({ ...partBase, type: z.literal('text'), text: z.string(), synthetic: z.boolean().optional() }),
  z.object({
    ...partBase,
    type: z.literal('reasoning'),
    text: z.string(),
    signature: z.string().optional(),
    redactedData: z.string().optional(),
    providerId: z.string().optional(),
    /** A Responses API reasoning item: its id, encrypted content and summary parts, sent back on later requests. */
    itemId: z.string().optional(),
    encryptedContent: z.string().optional(),
    summary: z.array(z.string()).optional(),
  }),
  z.object({
    ...partBase,
    type: z.literal('tool'),
    callId: z.string(),
    tool: z.string(),
    state: ToolState,
    /** The provider's signature of the call (Gemini's thought signature), sent back with it to that provider. */
    signature: z.string().optional(),
    providerId: z.string().optional(),
  }),
  z.object({ ...partBase, type: z.literal('step-start') }),
  z.object({
    ...partBase,
    type: z.literal('step-finish'),
    usage: Usage,
    cost: z.number(),
    finish: z.string(),
  }),
  z.object({
    ...partBase,
    type: z.literal('compaction'),
    summary: z.string(),
    auto: z.boolean(),
    /** The last message the summary covers; later messages are sent verbatim. Absent: all before this marker. */
    upTo: MessageId.optional(),
  }),
  /**
   * Context the app adds for the model, outside the cached prompt: on a user message, what this turn
   * knows that the system prompt does not (date, git status, instruction files and memory when new or
   * changed); on an assistant message, facts that arrived after its tool results were sent (late
   * language-server diagnostics), sent after those results. Each section keeps its full text so a
   * summary can carry the latest value of every section forward.
   */
  z.object({
    ...partBase,
    type: z.literal('context'),
    sections: z.array(z.object({ name: z.string(), text: z.string() })),
  }),
  /**
   * An image the user attached to a message. The bytes live in the `images` table (see docs/decisions/images.md);
   * `scaled` is the smaller copy sent to the model when the original is larger than the providers want.
   */
  z.object({ ...partBase, type: z.literal('image'), name: z.string(), ...StoredImage.shape, scaled: StoredImage.optional() }),
  /** Hooks of a turn that failed (UserPromptSubmit/SessionStart on the user's message, Stop on the turn's last one). */
  z.object({ ...partBase, type: z.literal('hook'), event: HookEventName, failures: z.array(HookFailure).min(1) }),
])
export type Part = z.infer<typeof Part>
export type PartOf<T extends Part['type']> = Extract<Part, { type: T }>

export const MessageWithParts = z.object({ info: Message, parts: z.array(Part) })
export type MessageWithParts = z.infer<typeof MessageWithParts>

export const SessionStatus = z.discriminatedUnion('type', [
  z.object({ type: z.literal('idle') }),
  z.object({ type: z.literal('busy') }),
  z.object({ type: z.literal('retry'), attempt: z.number(), message: z.string(), nextAt: z.number() }),
])
export type SessionStatus = z.infer<typeof SessionStatus>
