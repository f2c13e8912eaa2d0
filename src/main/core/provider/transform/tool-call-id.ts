import { createHash } from 'node:crypto'
import type { ProviderKind } from '../presets'

const VALID = /^[a-zA-Z0-9_-]+$/

// Anthropic requires ^[a-zA-Z0-9_-]+$; OpenAI rejects ids longer than 40 characters.
// Both limits are applied to every provider so one id maps the same way everywhere.
const MAX_LENGTH: Record<ProviderKind, number> = { anthropic: 64, openai: 40, 'openai-compatible': 40 }

/**
 * A tool-call id the target provider accepts. Valid ids pass through unchanged; others
 * are sanitized and suffixed with a hash of the original, so the mapping is a pure
 * function (a call and its result always map to the same id, across requests) and two
 * different ids cannot collide after sanitizing.
 */
export function toolCallIdFor(id: string, kind: ProviderKind): string {
  const max = MAX_LENGTH[kind]
  if (VALID.test(id) && id.length <= max) return id
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 10)
  const head = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, max - hash.length - 1)
  return `${head}_${hash}`
}
