import type { Message, RawMessageStreamEvent, RefusalStopDetails, StopReason } from '@anthropic-ai/sdk/resources/messages'
import type { FailureContext } from '../error-mapping'
import { streamInterrupted } from '../error-mapping'
import { abortedError } from '../errors'
import type { Citation, Completion, FinishReason, StreamEvent, ToolCallEndEvent, Usage } from '../types'
import { toolCallEnd } from './tool-input'

export function anthropicFinishReason(reason: StopReason | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop'
    case 'tool_use':
      return 'tool_calls'
    case 'max_tokens':
      return 'length'
    case 'model_context_window_exceeded':
      return 'context_window'
    case 'refusal':
      return 'refusal'
    case 'pause_turn':
      return 'pause'
    // The stream ended without a message_delta saying why.
    case null:
    case undefined:
      return 'other'
    default:
      // A stop reason newer than this SDK's types.
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

/** What a refusal's `stop_details` say, for the user: the explanation, with its policy category. */
export function refusalDetail(details: RefusalStopDetails | null | undefined): string | undefined {
  if (!details?.explanation) return undefined
  return details.category ? `${details.explanation} (${details.category})` : details.explanation
}

type Block =
  | { kind: 'text'; cited: boolean; citations: Record<string, unknown>[] }
  | { kind: 'thinking' }
  | { kind: 'tool'; id: string; name: string; json: string }
  | { kind: 'provider'; block: Record<string, unknown>; json: string }
  | { kind: 'other' }

/** A citation as the API sends it → the neutral shape (the raw object is kept for sending back). */
export function anthropicCitation(raw: Record<string, unknown>, providerId: string): Citation | undefined {
  // Only web search citations point at a URL; document citations (which we never request) do not.
  if (typeof raw.url !== 'string') return undefined
  return {
    url: raw.url,
    ...(typeof raw.title === 'string' ? { title: raw.title } : {}),
    ...(typeof raw.cited_text === 'string' ? { citedText: raw.cited_text } : {}),
    providerId,
    raw,
  }
}

/**
 * A finished provider block. A server tool call's input streams as JSON deltas like a
 * tool call's; the parsed input replaces the empty one of its start event. Input that
 * does not parse (never seen from the API) keeps the start event's.
 */
function finishProviderBlock(block: Extract<Block, { kind: 'provider' }>): Record<string, unknown> {
  if (block.json.trim() === '') return block.block
  try {
    return { ...block.block, input: JSON.parse(block.json) as unknown }
  } catch {
    return block.block
  }
}

/** Anthropic Messages stream events → normalized events. */
export async function* mapAnthropicStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  ctx: FailureContext,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  const usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }
  const blocks = new Map<number, Block>()
  let stopReason: StopReason | null = null
  let stopDetails: RefusalStopDetails | null = null
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        applyUsage(usage, event.message.usage)
        break
      case 'content_block_start': {
        const block = event.content_block
        if (block.type === 'text') {
          // A span that will cite sources starts with a `citations` list (empty until its deltas).
          const cited = Array.isArray(block.citations)
          blocks.set(event.index, { kind: 'text', cited, citations: [] })
          if (block.text) yield cited ? { type: 'text-delta', text: block.text, cited } : { type: 'text-delta', text: block.text }
        } else if (block.type === 'thinking') {
          blocks.set(event.index, { kind: 'thinking' })
        } else if (block.type === 'redacted_thinking') {
          blocks.set(event.index, { kind: 'other' })
          yield { type: 'reasoning-delta', text: '', redactedData: block.data }
        } else if (block.type === 'tool_use') {
          blocks.set(event.index, { kind: 'tool', id: block.id, name: block.name, json: '' })
          yield { type: 'tool-call-start', id: block.id, name: block.name }
        } else {
          // Server tool calls and results (web search), and block types this version does not know:
          // kept whole so they can be sent back exactly (a paused turn is continued with them).
          blocks.set(event.index, { kind: 'provider', block: { ...block } as Record<string, unknown>, json: '' })
        }
        break
      }
      case 'content_block_delta': {
        const delta = event.delta
        const block = blocks.get(event.index)
        if (delta.type === 'text_delta') {
          if (delta.text) yield block?.kind === 'text' && block.cited ? { type: 'text-delta', text: delta.text, cited: true } : { type: 'text-delta', text: delta.text }
        } else if (delta.type === 'thinking_delta') {
          if (delta.thinking) yield { type: 'reasoning-delta', text: delta.thinking }
        } else if (delta.type === 'signature_delta') {
          yield { type: 'reasoning-delta', text: '', signature: delta.signature }
        } else if (delta.type === 'input_json_delta' && block?.kind === 'tool') {
          block.json += delta.partial_json
          if (delta.partial_json) yield { type: 'tool-call-delta', id: block.id, argsDelta: delta.partial_json }
        } else if (delta.type === 'input_json_delta' && block?.kind === 'provider') {
          block.json += delta.partial_json
        } else if (delta.type === 'citations_delta' && block?.kind === 'text') {
          block.cited = true
          block.citations.push({ ...delta.citation } as Record<string, unknown>)
        }
        break
      }
      case 'content_block_stop': {
        const block = blocks.get(event.index)
        if (block?.kind === 'tool') yield toolCallEnd(block.id, block.name, block.json)
        else if (block?.kind === 'provider') yield { type: 'provider-block', block: finishProviderBlock(block) }
        else if (block?.kind === 'text') {
          for (const raw of block.citations) {
            const citation = anthropicCitation(raw, ctx.providerId)
            if (citation) yield { type: 'citation', citation }
          }
        }
        break
      }
      case 'message_delta':
        stopReason = event.delta.stop_reason
        stopDetails = event.delta.stop_details ?? null
        applyUsage(usage, event.usage)
        break
      case 'message_stop': {
        yield { type: 'usage', usage: { ...usage } }
        const detail = refusalDetail(stopDetails)
        yield { type: 'finish', reason: anthropicFinishReason(stopReason), rawReason: stopReason ?? undefined, ...(detail ? { detail } : {}) }
        return
      }
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
