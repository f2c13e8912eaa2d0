import { randomUUID } from 'node:crypto'
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { CompletionUsage } from 'openai/resources/completions'
import type { FailureContext } from '../error-mapping'
import { streamInterrupted } from '../error-mapping'
import { abortedError } from '../errors'
import type { Completion, FinishReason, StreamEvent, ToolCallEndEvent, Usage } from '../types'
import { toolCallEnd } from './tool-input'

export function openaiFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop'
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls'
    case 'length':
      return 'length'
    case 'content_filter':
      return 'content_filter'
    default:
      return 'other'
  }
}

/** Usage fields compatible servers add next to OpenAI's (DeepSeek, Moonshot, OpenRouter). */
type LooseUsage = CompletionUsage & {
  prompt_cache_hit_tokens?: number
  cached_tokens?: number
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null
}

export function openaiUsage(raw: LooseUsage): Usage {
  const cacheRead = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens ?? raw.cached_tokens ?? 0
  const cacheWrite = raw.prompt_tokens_details?.cache_write_tokens ?? 0
  const usage: Usage = {
    // prompt_tokens includes cached tokens; ours does not (see Usage).
    input: Math.max(0, raw.prompt_tokens - cacheRead - cacheWrite),
    output: raw.completion_tokens,
    cacheRead,
    cacheWrite,
  }
  const reasoning = raw.completion_tokens_details?.reasoning_tokens
  if (typeof reasoning === 'number') usage.reasoning = reasoning
  return usage
}

/** Reasoning deltas arrive in a field named by the server: DeepSeek/Kimi one, OpenRouter/Ollama the other. */
type LooseDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown }
type LooseChoice = ChatCompletionChunk.Choice & { usage?: LooseUsage | null }

interface OpenCall {
  id: string
  name: string
  args: string
  ended: boolean
}

/** Chat Completions chunks → normalized events. */
export async function* mapOpenAIStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  ctx: FailureContext,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  const calls = new Map<number, OpenCall>()
  let current: OpenCall | undefined
  let finish: string | null = null
  let usage: Usage | undefined

  function* endCall(call: OpenCall | undefined): Generator<StreamEvent> {
    if (!call || call.ended) return
    call.ended = true
    yield toolCallEnd(call.id, call.name, call.args)
  }

  for await (const chunk of chunks) {
    if (chunk.usage) usage = openaiUsage(chunk.usage)
    const choice = chunk.choices[0] as LooseChoice | undefined
    if (!choice) continue
    // Moonshot reports usage inside the final choice.
    if (choice.usage) usage = openaiUsage(choice.usage)
    const delta = choice.delta as LooseDelta | undefined
    if (delta) {
      const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning
      if (typeof reasoning === 'string' && reasoning.length > 0) yield { type: 'reasoning-delta', text: reasoning }
      if (delta.content) yield { type: 'text-delta', text: delta.content }
      if (delta.refusal) yield { type: 'text-delta', text: delta.refusal }
      for (const part of delta.tool_calls ?? []) {
        let call = calls.get(part.index)
        if (!call) {
          // Calls stream one after another: a new index means the previous call is complete.
          yield* endCall(current)
          call = { id: part.id || `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`, name: part.function?.name ?? '', args: '', ended: false }
          calls.set(part.index, call)
          current = call
          yield { type: 'tool-call-start', id: call.id, name: call.name }
        }
        const args = part.function?.arguments
        if (args) {
          call.args += args
          yield { type: 'tool-call-delta', id: call.id, argsDelta: args }
        }
      }
    }
    if (choice.finish_reason) {
      finish = choice.finish_reason
      for (const call of calls.values()) yield* endCall(call)
    }
  }
  if (finish === null) {
    if (signal?.aborted) throw abortedError(ctx.providerId, ctx.model)
    throw streamInterrupted(undefined, ctx, 'the stream ended before a finish_reason')
  }
  yield { type: 'usage', usage: usage ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }
  yield { type: 'finish', reason: openaiFinishReason(finish), rawReason: finish }
}

/** A non-streamed chat completion → a completion. */
export function openaiCompletion(response: ChatCompletion): Completion {
  const choice = response.choices[0]
  const message = choice?.message as (ChatCompletion.Choice['message'] & { reasoning_content?: unknown; reasoning?: unknown }) | undefined
  const toolCalls: ToolCallEndEvent[] = []
  for (const call of message?.tool_calls ?? []) {
    if (call.type === 'function') toolCalls.push(toolCallEnd(call.id, call.function.name, call.function.arguments))
  }
  const reasoning = message?.reasoning_content ?? message?.reasoning
  return {
    text: message?.content ?? '',
    reasoning: typeof reasoning === 'string' ? reasoning : '',
    toolCalls,
    usage: response.usage ? openaiUsage(response.usage) : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    finishReason: openaiFinishReason(choice?.finish_reason),
  }
}
