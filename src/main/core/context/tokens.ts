import type { MessageWithParts, Part, PartOf, Usage } from '@shared/schema/session'
import type { ToolDefinition } from '../provider'
import { toolOutputForModel } from './placeholder'
import { contextText } from './turn-context'

/**
 * Token estimates without a tokenizer: about four characters a token for English
 * and code. Only used where the provider has not told us the real count (before a
 * request, for new content since the last step), so a rough figure is enough.
 */
export const CHARS_PER_TOKEN = 4

/** Role markers and framing each message costs on the wire, in characters. */
const MESSAGE_OVERHEAD_CHARS = 16

export function tokensFromChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN)
}

export function estimateTokens(text: string): number {
  return tokensFromChars(text.length)
}

/** Everything the provider counted for a step: the whole prompt (cached or not) plus the answer. */
export function usageTotal(usage: Usage): number {
  return usage.input + usage.cacheRead + usage.cacheWrite + usage.output
}

function inputChars(input: unknown): number {
  if (input === undefined || input === null) return 2
  if (typeof input === 'string') return input.length + 2
  return JSON.stringify(input).length
}

/** Characters of the tool result the model is sent for this call. */
export function toolResultChars(part: PartOf<'tool'>): number {
  return toolOutputForModel(part).length
}

/** Characters a stored part costs in a request (parts the model never sees cost nothing). */
export function partChars(part: Part): number {
  switch (part.type) {
    case 'text':
      return part.text.length
    case 'reasoning':
      // Encrypted reasoning goes back whole and is read as the reasoning tokens it holds.
      return part.text.length + (part.signature?.length ?? 0) + (part.redactedData?.length ?? 0) + (part.encryptedContent?.length ?? 0)
    case 'tool':
      return part.tool.length + part.callId.length + inputChars(part.state.input) + toolResultChars(part)
    case 'context':
      return part.sections.length === 0 ? 0 : contextText(part.sections).length
    case 'image':
      return imageTokens(part.scaled ?? part) * CHARS_PER_TOKEN
    // Never sent: step markers and failed hooks are for the UI; a compaction marker is not among the messages
    // a request sends (its summary is measured where the view is, see `measureView`).
    case 'step-start':
    case 'step-finish':
    case 'hook':
    case 'compaction':
      return 0
  }
}

/**
 * Anthropic's published estimate for an image, width × height / 750 tokens, for the size the API works at
 * (the long edge brought to 1568 px at most). OpenAI's high-detail tiles come to a similar figure.
 */
export function imageTokens(image: { width: number; height: number }): number {
  const scale = Math.min(1, 1568 / Math.max(image.width, image.height))
  return Math.ceil((image.width * scale * image.height * scale) / 750)
}

export function messageChars(message: MessageWithParts): number {
  let chars = MESSAGE_OVERHEAD_CHARS
  for (const part of message.parts) chars += partChars(part)
  return chars
}

export function messageTokens(message: MessageWithParts): number {
  return tokensFromChars(messageChars(message))
}

/** The fixed part of a request: system blocks and tool schemas. */
export function overheadChars(system: readonly string[] | undefined, tools: readonly ToolDefinition[] | undefined): number {
  let chars = 0
  for (const block of system ?? []) chars += block.length
  for (const tool of tools ?? []) chars += tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema).length
  return chars
}
