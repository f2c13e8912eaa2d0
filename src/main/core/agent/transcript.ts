import { stripVTControlCharacters } from 'node:util'
import type { MessageWithParts, Part, PartOf } from '@shared/schema/session'
import type { AssistantMessage, ModelMessage, ToolMessage, ToolResultPart, UserMessage } from '../provider'
import { enforceInvariant, type InvariantRepair } from '../context/invariant'
import { INTERRUPTED_OUTPUT, toolOutputForModel } from '../context/placeholder'
import { CONTINUE_TRUNCATED_TEXT, continuedTruncated, withoutRefusedTurns } from '../context/stopped-turns'
import { contextParts } from '../context/turn-context'

export const INTERRUPTED_RESULT = INTERRUPTED_OUTPUT

/**
 * Pruned outputs are sent as a placeholder (see context/placeholder.ts); the stored output stays for the UI.
 * Terminal colour and cursor codes are stripped for the model (they cost tokens and mean nothing to it); the
 * stored output keeps them for the terminal view.
 */
function toolResult(part: PartOf<'tool'>): ToolResultPart {
  const text = stripVTControlCharacters(toolOutputForModel(part))
  const images = part.state.status === 'completed' && part.state.compactedAt === undefined ? imagesOf(part) : []
  const output: ToolResultPart['output'] = images.length > 0 ? [{ type: 'text', text }, ...images] : text
  const result: ToolResultPart = { type: 'tool-result', toolCallId: part.callId, toolName: part.tool, output }
  return part.state.status === 'completed' ? result : { ...result, isError: true }
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/** Images a tool returned (e.g. an MCP screenshot), kept in the part's metadata. */
function imagesOf(part: PartOf<'tool'>): Extract<Exclude<ToolResultPart['output'], string>[number], { type: 'image' }>[] {
  const attachments = part.state.metadata?.attachments
  if (!Array.isArray(attachments)) return []
  return attachments.flatMap((a: unknown) => {
    const { mediaType, data, filename } = (a ?? {}) as { mediaType?: unknown; data?: unknown; filename?: unknown }
    if (typeof mediaType !== 'string' || typeof data !== 'string' || !IMAGE_TYPES.has(mediaType)) return []
    return [{ type: 'image' as const, mediaType: mediaType as 'image/png', data, ...(typeof filename === 'string' ? { name: filename } : {}) }]
  })
}

export interface TranscriptRepair {
  /** Tool calls that had no result and were answered as interrupted. */
  interrupted: string[]
  /** Empty assistant messages left out. */
  droppedEmpty: number
  /** What the final invariant pass had to fix (nothing, for a transcript built from a healthy store). */
  invariant: InvariantRepair
}

/**
 * The stored transcript as provider messages. Enforces the invariant every
 * provider checks: each tool call is followed by exactly its result, and no
 * result appears without its call — calls that never finished are answered as
 * interrupted, so the next request is always valid. Refused turns are left out and a
 * continued cut-off answer is followed by a note (see context/stopped-turns.ts).
 */
export function toModelMessages(stored: MessageWithParts[], images: ImageLoader = () => undefined): { messages: ModelMessage[]; repair: TranscriptRepair } {
  const messages: ModelMessage[] = []
  const repair: Omit<TranscriptRepair, 'invariant'> = { interrupted: [], droppedEmpty: 0 }
  const history = withoutRefusedTurns(stored)
  for (const [index, message] of history.entries()) {
    const { info, parts } = message
    // The app's context for the turn goes first, so the user's words end the message.
    const context = contextParts({ info, parts }).map((text) => ({ type: 'text' as const, text }))
    if (info.role === 'user') {
      const content = userContent(parts, images)
      if (content.length > 0) pushUser(messages, { role: 'user', content: [...context, ...content] })
      continue
    }
    const content: AssistantMessage['content'] = []
    const results: ToolResultPart[] = []
    const seen = new Set<string>()
    for (const part of parts) {
      if (part.type === 'text' && part.text.length > 0) content.push({ type: 'text', text: part.text })
      else if (part.type === 'reasoning' && (part.text.length > 0 || part.redactedData || part.encryptedContent)) {
        content.push({
          type: 'reasoning',
          text: part.text,
          ...(part.signature ? { signature: part.signature } : {}),
          ...(part.redactedData ? { redactedData: part.redactedData } : {}),
          ...(part.providerId ? { providerId: part.providerId } : {}),
          ...(part.encryptedContent ? { itemId: part.itemId, encryptedContent: part.encryptedContent, summary: part.summary } : {}),
        })
      } else if (part.type === 'tool' && !seen.has(part.callId)) {
        seen.add(part.callId)
        content.push({
          type: 'tool-call',
          id: part.callId,
          name: part.tool,
          input: isObject(part.state.input) ? part.state.input : {},
          ...(part.signature ? { signature: part.signature, providerId: part.providerId } : {}),
        })
        if (part.state.status === 'pending' || part.state.status === 'running') repair.interrupted.push(part.callId)
        results.push(toolResult(part))
      }
    }
    if (!content.some((c) => c.type === 'text' || c.type === 'tool-call')) {
      repair.droppedEmpty++
      continue
    }
    messages.push({ role: 'assistant', content })
    if (results.length > 0) messages.push({ role: 'tool', content: results } satisfies ToolMessage)
    // Facts that arrived after this step's results were sent (late diagnostics) follow them.
    if (context.length > 0) pushUser(messages, { role: 'user', content: context })
    if (continuedTruncated(message, history[index + 1])) pushUser(messages, { role: 'user', content: [{ type: 'text', text: CONTINUE_TRUNCATED_TEXT }] })
  }
  // The pass above pairs calls within each stored message; this one holds the rule across
  // messages too (ids reused by the model, a transcript cut by a compaction boundary).
  const checked = enforceInvariant(messages)
  return { messages: checked.messages, repair: { ...repair, invariant: checked.repair } }
}

/** The bytes of a stored image (see `SessionStore.image`), base64; undefined when they are gone. */
export type ImageLoader = (imageId: string) => { mediaType: string; data: string } | undefined

/**
 * A user message's text and images. Images go first, as Anthropic advises (a question about an image is
 * answered better after it); each is sent as its scaled copy when it has one.
 */
function userContent(parts: Part[], load: ImageLoader): UserMessage['content'] {
  const images = parts.filter((p): p is PartOf<'image'> => p.type === 'image').map((part): UserMessage['content'][number] => {
    const copy = part.scaled ?? part
    const stored = load(copy.imageId)
    if (!stored) return { type: 'text', text: `[image ${part.name} is no longer stored]` }
    return { type: 'image', mediaType: copy.mediaType, data: stored.data, width: copy.width, height: copy.height, name: part.name }
  })
  const texts = parts.filter((p): p is PartOf<'text'> => p.type === 'text' && p.text.length > 0).map((p) => ({ type: 'text' as const, text: p.text }))
  return [...images, ...texts]
}

/** Consecutive user turns (e.g. after a stopped turn) are merged into one message. */
function pushUser(messages: ModelMessage[], message: UserMessage): void {
  const last = messages.at(-1)
  if (last?.role === 'user') last.content.push(...message.content)
  else messages.push(message)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function isToolPart(part: Part): part is PartOf<'tool'> {
  return part.type === 'tool'
}
