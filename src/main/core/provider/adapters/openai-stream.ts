import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { CompletionUsage } from 'openai/resources/completions'
import type { FailureContext } from '../error-mapping'
import { streamInterrupted } from '../error-mapping'
import { abortedError } from '../errors'
import type { Completion, FinishReason, StreamEvent, ToolCallEndEvent, Usage } from '../types'
import { type LooseToolCallDelta, ToolCallAssembler, argumentsText, newCallId, thoughtSignature } from './openai-tool-calls'
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
    // A compatible server that does not say why it stopped.
    case null:
    case undefined:
      return 'other'
    default:
      // A reason of a compatible server's own.
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

/** Chat Completions chunks → normalized events. */
export async function* mapOpenAIStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  ctx: FailureContext,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  const calls = new ToolCallAssembler()
  let finish: string | null = null
  let usage: Usage | undefined
  // A `refusal` delta is the model declining (structured outputs); the finish still says `stop`.
  let refused = false

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
      if (delta.refusal) {
        refused = true
        yield { type: 'text-delta', text: delta.refusal }
      }
      for (const part of (delta.tool_calls ?? []) as LooseToolCallDelta[]) yield* calls.add(part)
    }
    if (choice.finish_reason) {
      finish = choice.finish_reason
      yield* calls.finish()
    }
  }
  if (finish === null) {
    if (signal?.aborted) throw abortedError(ctx.providerId, ctx.model)
    throw streamInterrupted(undefined, ctx, 'the stream ended before a finish_reason')
  }
  yield { type: 'usage', usage: usage ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }
  yield { type: 'finish', reason: refused && finish === 'stop' ? 'refusal' : finishWithCalls(finish, calls.count), rawReason: finish }
}

/** Some servers (Ollama, LiteLLM in front of it) end a tool-calling answer with `stop`: the calls still run. */
function finishWithCalls(raw: string | null | undefined, calls: number): FinishReason {
  const reason = openaiFinishReason(raw)
  return reason === 'stop' && calls > 0 ? 'tool_calls' : reason
}

/** A non-streamed message's tool call, as loosely as servers send it (see `LooseToolCallDelta`). */
interface LooseMessageCall {
  id?: unknown
  type?: unknown
  function?: { name?: unknown; arguments?: unknown } | null
  extra_content?: unknown
}

/** A non-streamed chat completion → a completion. */
export function openaiCompletion(response: ChatCompletion): Completion {
  const choice = response.choices[0]
  const message = choice?.message as (ChatCompletion.Choice['message'] & { reasoning_content?: unknown; reasoning?: unknown }) | undefined
  const toolCalls: ToolCallEndEvent[] = []
  for (const call of (message?.tool_calls ?? []) as LooseMessageCall[]) {
    // Ollama leaves out `type` and may send `arguments` as an object; only other kinds (`custom`) are skipped.
    if (call.type !== undefined && call.type !== 'function') continue
    const id = typeof call.id === 'string' && call.id.length > 0 ? call.id : newCallId()
    const name = typeof call.function?.name === 'string' ? call.function.name : ''
    const end = toolCallEnd(id, name, argumentsText(call.function?.arguments) ?? '')
    const signature = thoughtSignature(call.extra_content)
    toolCalls.push(signature ? { ...end, signature } : end)
  }
  const reasoning = message?.reasoning_content ?? message?.reasoning
  return {
    text: message?.content ?? '',
    reasoning: typeof reasoning === 'string' ? reasoning : '',
    toolCalls,
    usage: response.usage ? openaiUsage(response.usage) : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    finishReason: finishWithCalls(choice?.finish_reason, toolCalls.length),
  }
}
