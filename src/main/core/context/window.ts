import type { MessageWithParts, PartOf } from '@shared/schema/session'
import { type ContextSection, isStateSection, sentSections } from './turn-context'

/**
 * Which stored messages a request sends. The newest compaction marker (an
 * assistant message holding a `compaction` part) replaces everything up to the
 * message it covers (`upTo`) with its summary; later messages go verbatim. The cut
 * is always between whole stored messages, and a tool call and its result live in
 * the same stored part, so a boundary can never separate them.
 */

export interface ActiveCompaction {
  messageId: string
  part: PartOf<'compaction'>
}

export interface ContextView {
  compaction?: ActiveCompaction
  /** Messages sent verbatim, oldest first; compaction markers are never among them. */
  tail: MessageWithParts[]
  /**
   * Index in `tail` of the first message newer than the active marker. Usage measured on
   * earlier messages counted the context from before the compaction.
   */
  freshFrom: number
  /**
   * The turn context (`context` sections) the summarized messages had given the model, latest
   * text of each: the summary carries it forward, since the messages that held it are not sent.
   */
  carried: ContextSection[]
}

export function compactionPart(message: MessageWithParts): PartOf<'compaction'> | undefined {
  for (let i = message.parts.length - 1; i >= 0; i--) {
    const part = message.parts[i]
    if (part?.type === 'compaction') return part
  }
  return undefined
}

export function isCompactionMarker(message: MessageWithParts): boolean {
  return compactionPart(message) !== undefined
}

export function contextView(history: readonly MessageWithParts[]): ContextView {
  let markerIndex = -1
  let part: PartOf<'compaction'> | undefined
  for (let i = history.length - 1; i >= 0 && !part; i--) {
    part = compactionPart(history[i] as MessageWithParts)
    if (part) markerIndex = i
  }
  if (!part) return { tail: [...history], freshFrom: 0, carried: [] }
  const upTo = part.upTo
  // A marker whose covered message is gone (or never named one) covers everything before it.
  const coveredIndex = upTo === undefined ? -1 : history.findIndex((m) => m.info.id === upTo)
  const start = coveredIndex >= 0 ? coveredIndex + 1 : markerIndex + 1
  const tail: MessageWithParts[] = []
  let freshFrom = 0
  for (let i = start; i < history.length; i++) {
    const message = history[i] as MessageWithParts
    if (isCompactionMarker(message)) continue
    if (i < markerIndex) freshFrom = tail.length + 1
    tail.push(message)
  }
  const marker = history[markerIndex] as MessageWithParts
  const carried = [...sentSections(history.slice(0, start))].map(([name, text]) => ({ name, text })).filter((s) => s.text.length > 0 && isStateSection(s.name))
  return { compaction: { messageId: marker.info.id, part }, tail, freshFrom, carried }
}

/** How the summary is framed for the model in every later request. */
export function summaryText(summary: string): string {
  return [
    '<conversation-summary>',
    'Earlier messages of this conversation were replaced by this summary to save context; messages after it are verbatim.',
    'Continue the work from here. Re-read files before you edit them if you need their exact content.',
    '',
    summary.trim(),
    '</conversation-summary>',
  ].join('\n')
}

/**
 * The view as stored messages ready for the transcript builder: the summary
 * becomes a synthetic user message in front of the tail (it is never stored as one).
 */
export function viewMessages(view: ContextView): MessageWithParts[] {
  const compaction = view.compaction
  if (!compaction) return view.tail
  const { part } = compaction
  const first = view.tail[0]
  const summary: MessageWithParts = {
    info: {
      id: compaction.messageId,
      sessionId: part.sessionId,
      role: 'user',
      agent: first?.info.agent ?? 'compaction',
      model: first?.info.model ?? '',
      createdAt: 0,
      completedAt: 0,
    },
    parts: [
      ...(view.carried.length > 0 ? [{ id: part.id, messageId: compaction.messageId, sessionId: part.sessionId, type: 'context' as const, sections: view.carried }] : []),
      { id: part.id, messageId: compaction.messageId, sessionId: part.sessionId, type: 'text', text: summaryText(part.summary), synthetic: true },
    ],
  }
  return [summary, ...view.tail]
}
