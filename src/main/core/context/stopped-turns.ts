import type { MessageWithParts } from '@shared/schema/session'

/**
 * How stored stop reasons shape later requests.
 *
 * - A refused turn (the model or a safety classifier declined: finish `refusal`) is left out of
 *   every later request, from the user message that started it to the refusal. Anthropic asks
 *   for exactly this ("reset the conversation context"): sending the refused exchange again
 *   only draws more refusals. The transcript keeps it for the user.
 * - A text answer cut by the output limit (finish `length`, no tool call) that the next step
 *   continued is followed by a note telling the model so: the continuation request is the
 *   cut answer plus that note, never an assistant prefill (thinking models and OpenAI refuse
 *   those).
 */

export const CONTINUE_TRUNCATED_TEXT =
  'Your previous response was cut off at the output limit. Continue exactly where it stopped, without repeating what you already wrote.'

/** The stored messages without refused turns (see above). */
export function withoutRefusedTurns(history: readonly MessageWithParts[]): MessageWithParts[] {
  const out: MessageWithParts[] = []
  let turnStart = 0
  for (const message of history) {
    if (message.info.role === 'user') turnStart = out.length
    if (message.info.role === 'assistant' && message.info.finish === 'refusal') {
      out.length = turnStart
      continue
    }
    out.push(message)
  }
  return out
}

/**
 * Whether the next step continues `message`, a cut-off text answer: a step follows it (or is
 * being requested: it is the newest message) instead of the user's next message. The
 * continuation note goes right after it.
 */
export function continuedTruncated(message: MessageWithParts, next: MessageWithParts | undefined): boolean {
  return (
    message.info.role === 'assistant' &&
    message.info.finish === 'length' &&
    next?.info.role !== 'user' &&
    !message.parts.some((part) => part.type === 'tool')
  )
}
