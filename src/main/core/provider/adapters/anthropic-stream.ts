import type { Message, RawMessageStreamEvent, StopReason } from '@anthropic-ai/sdk/resources/messages'
import type { FailureContext } from '../error-mapping'
import { streamInterrupted } from '../error-mapping'
import { abortedError } from '../errors'
import type { Completion, FinishReason, StreamEvent, ToolCallEndEvent, Usage } from '../types'
import { toolCallEnd } from './tool-input'

export function anthropicFinishReason(reason: StopReason | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop'
    case 'tool_use':
      return 'tool_calls'
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length'
    case 'refusal':
      return 'refusal'
    case 'pause_turn':
      return 'pause'
    default:
      return 'other'
  }
}

/** The usage shapes of `message_start` (full) and `message_delta` (cumulative, nullable). */
interface UsageFields {
  input_tokens?: number | null
  output_tokens?: number | null
  cache_creation_input_tokens?: number | null
  cache_read_input_tokens?: number | null
  output_tokens_details?: { thinking_tokens?: number } | null
}

/** Applies the counts a usage object carries; `message_delta` repeats some as cumulative totals. */
function applyUsage(usage: Usage, fields: UsageFields | null | undefined): void {
  if (!fields) return
  if (typeof fields.input_tokens === 'number') usage.input = fields.input_tokens
  if (typeof fields.output_tokens === 'number') usage.output = fields.output_tokens
  if (typeof fields.cache_read_input_tokens === 'number') usage.cacheRead = fields.cache_read_input_tokens
  if (typeof fields.cache_creation_input_tokens === 'number') usage.cacheWrite = fields.cache_creation_input_tokens
  const thinking = fields.output_tokens_details?.thinking_tokens
  if (typeof thinking === 'number') usage.reasoning = thinking
}

type Block = { kind: 'text' } | { kind: 'thinking' } | { kind: 'tool'; id: string; name: string; json: string } | { kind: 'other' }

/** Anthropic Messages stream events → normalized events. */
export async function* mapAnthropicStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  ctx: FailureContext,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  const usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }
  const blocks = new Map<number, Block>()
  let stopReason: StopReason | null = null
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        applyUsage(usage, event.message.usage)
        break
      case 'content_block_start': {
        const block = event.content_block
        if (block.type === 'text') {
          blocks.set(event.index, { kind: 'text' })
          if (block.text) yield { type: 'text-delta', text: block.text }
        } else if (block.type === 'thinking') {
          blocks.set(event.index, { kind: 'thinking' })
        } else if (block.type === 'redacted_thinking') {
          blocks.set(event.index, { kind: 'other' })
          yield { type: 'reasoning-delta', text: '', redactedData: block.data }
        } else if (block.type === 'tool_use') {
          blocks.set(event.index, { kind: 'tool', id: block.id, name: block.name, json: '' })
          yield { type: 'tool-call-start', id: block.id, name: block.name }
        } else {
          // Server-side tool blocks (web search…) are not requested by us; ignore them.
          blocks.set(event.index, { kind: 'other' })
        }
        break
      }
      case 'content_block_delta': {
        const delta = event.delta
        const block = blocks.get(event.index)
        if (delta.type === 'text_delta') {
          if (delta.text) yield { type: 'text-delta', text: delta.text }
        } else if (delta.type === 'thinking_delta') {
          if (delta.thinking) yield { type: 'reasoning-delta', text: delta.thinking }
        } else if (delta.type === 'signature_delta') {
          yield { type: 'reasoning-delta', text: '', signature: delta.signature }
        } else if (delta.type === 'input_json_delta' && block?.kind === 'tool') {
          block.json += delta.partial_json
          if (delta.partial_json) yield { type: 'tool-call-delta', id: block.id, argsDelta: delta.partial_json }
        }
        break
      }
      case 'content_block_stop': {
        const block = blocks.get(event.index)
        if (block?.kind === 'tool') yield toolCallEnd(block.id, block.name, block.json)
        break
      }
      case 'message_delta':
        stopReason = event.delta.stop_reason
        applyUsage(usage, event.usage)
        break
      case 'message_stop':
        yield { type: 'usage', usage: { ...usage } }
        yield { type: 'finish', reason: anthropicFinishReason(stopReason), rawReason: stopReason ?? undefined }
        return
    }
  }
  // The SDK ends a stream quietly when it is aborted; anything else without
  // `message_stop` is a response cut short.
  if (signal?.aborted) throw abortedError(ctx.providerId, ctx.model)
  throw streamInterrupted(undefined, ctx, 'the stream ended before message_stop')
}

/** A non-streamed Messages response → a completion. */
export function anthropicCompletion(message: Message): Completion {
  const usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }
  applyUsage(usage, message.usage)
  let text = ''
  let reasoning = ''
  const toolCalls: ToolCallEndEvent[] = []
  for (const block of message.content) {
    if (block.type === 'text') text += block.text
    else if (block.type === 'thinking') reasoning += block.thinking
    else if (block.type === 'tool_use') {
      toolCalls.push({ type: 'tool-call-end', id: block.id, name: block.name, input: block.input })
    }
  }
  return { text, reasoning, toolCalls, usage, finishReason: anthropicFinishReason(message.stop_reason) }
}
