import type { ModelMessage } from '../types'

function hasText(text: string): boolean {
  return text.trim().length > 0
}

/**
 * Drops empty text (providers reject blank text blocks: Anthropic answers 400 to
 * empty or whitespace-only text) and then messages left with no content at all.
 * Tool results are kept even when empty: dropping one would unpair its call.
 */
export function cleanMessages(messages: readonly ModelMessage[]): ModelMessage[] {
  const cleaned: ModelMessage[] = []
  for (const message of messages) {
    if (message.role === 'tool') {
      if (message.content.length > 0) cleaned.push(message)
      continue
    }
    if (message.role === 'user') {
      const content = message.content.filter((part) => part.type !== 'text' || hasText(part.text))
      if (content.length > 0) cleaned.push({ role: 'user', content })
      continue
    }
    const content = message.content.filter((part) => part.type !== 'text' || hasText(part.text))
    if (content.length > 0) cleaned.push({ role: 'assistant', content })
  }
  return cleaned
}

/** The system prompt as non-empty blocks. */
export function systemBlocks(system: string | string[] | undefined): string[] {
  if (system === undefined) return []
  const blocks = typeof system === 'string' ? [system] : system
  return blocks.filter(hasText)
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
