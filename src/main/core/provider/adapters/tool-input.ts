import type { ToolCallEndEvent } from '../types'

/**
 * The `tool-call-end` event for accumulated argument text. Invalid JSON is not a
 * stream failure: the model made a mistake the loop reports back to it, so the raw
 * text and the parse error travel in `inputError`.
 */
export function toolCallEnd(id: string, name: string, raw: string): ToolCallEndEvent {
  // A call without arguments streams no argument text at all.
  if (raw.trim() === '') return { type: 'tool-call-end', id, name, input: {} }
  try {
    const input: unknown = JSON.parse(raw)
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return { type: 'tool-call-end', id, name, inputError: { raw, message: 'tool arguments must be a JSON object' } }
    }
    return { type: 'tool-call-end', id, name, input }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { type: 'tool-call-end', id, name, inputError: { raw, message } }
  }
}
