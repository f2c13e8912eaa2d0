import type { Response, ResponseOutputItem, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses'
import type { FailureContext } from '../error-mapping'
import { fromApiFailure, streamInterrupted } from '../error-mapping'
import { abortedError } from '../errors'
import type { Citation, Completion, FinishReason, ReasoningDeltaEvent, StreamEvent, ToolCallEndEvent, Usage } from '../types'
import { toolCallEnd } from './tool-input'

const ZERO_USAGE: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }

/** Usage as compatible servers send it: the details objects may be null or missing. */
type LooseUsage = Partial<Omit<ResponseUsage, 'input_tokens_details' | 'output_tokens_details'>> & {
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null
  output_tokens_details?: { reasoning_tokens?: number } | null
}

export function responsesUsage(raw: LooseUsage | null | undefined): Usage {
  if (!raw) return { ...ZERO_USAGE }
  const cacheRead = raw.input_tokens_details?.cached_tokens ?? 0
  const cacheWrite = raw.input_tokens_details?.cache_write_tokens ?? 0
  const usage: Usage = {
    // input_tokens includes cached tokens; ours does not (see Usage).
    input: Math.max(0, (raw.input_tokens ?? 0) - cacheRead - cacheWrite),
    output: raw.output_tokens ?? 0,
    cacheRead,
    cacheWrite,
  }
  const reasoning = raw.output_tokens_details?.reasoning_tokens
  if (typeof reasoning === 'number') usage.reasoning = reasoning
  return usage
}

/** Why an `incomplete` response stopped (`incomplete_details.reason`). */
export function incompleteReason(reason: string | null | undefined): FinishReason {
  if (reason === 'max_output_tokens') return 'length'
  if (reason === 'content_filter') return 'content_filter'
  return 'other'
}

/** Error codes of `response.failed` / `error` events, as the error types the shared mapping knows. */
const CODE_TYPES: Readonly<Record<string, string>> = {
  server_error: 'server_error',
  rate_limit_exceeded: 'rate_limit_error',
}

/** A failure the server reports inside a stream (`response.failed`, `error`), classified like an HTTP error. */
export function responsesStreamFailure(
  error: { code?: string | null; message?: string | null; type?: string | null } | null | undefined,
  ctx: FailureContext,
): ReturnType<typeof fromApiFailure> {
  const code = error?.code ?? undefined
  const type = error?.type && error.type !== 'error' ? error.type : code ? (CODE_TYPES[code] ?? code) : 'server_error'
  return fromApiFailure({ message: error?.message ?? 'the response failed', type, code }, ctx, error)
}

interface CallState {
  callId: string
  name: string
  args: string
  ended: boolean
}

interface ReasoningState {
  /** Text of each summary part (or of the raw reasoning content of servers that stream it). */
  parts: string[]
  streamed: boolean
}

/** The reasoning text of an item, one string per summary part (raw reasoning content where there is no summary). */
function reasoningTexts(item: Extract<ResponseOutputItem, { type: 'reasoning' }>): string[] {
  const summary = (item.summary ?? []).map((s) => s.text)
  if (summary.length > 0) return summary
  return (item.content ?? []).map((c) => c.text)
}

/** `url_citation` annotations of a message's text, as neutral citations. */
function urlCitations(item: Extract<ResponseOutputItem, { type: 'message' }>, providerId: string): Citation[] {
  const out: Citation[] = []
  for (const content of item.content ?? []) {
    if (content.type !== 'output_text') continue
    for (const annotation of content.annotations ?? []) {
      if (annotation.type !== 'url_citation') continue
      const cited = content.text.slice(annotation.start_index, annotation.end_index)
      out.push({ url: annotation.url, title: annotation.title, ...(cited ? { citedText: cited } : {}), providerId, raw: { ...annotation } })
    }
  }
  return out
}

function messageText(item: Extract<ResponseOutputItem, { type: 'message' }>): string {
  return (item.content ?? []).map((c) => (c.type === 'output_text' ? c.text : c.type === 'refusal' ? c.refusal : '')).join('')
}

/**
 * Responses API events → normalized events. Items arrive one after another by
 * `output_index`; each function call ends at its `function_call_arguments.done` (or its
 * `output_item.done`), a reasoning item at its `output_item.done`, which carries the
 * encrypted content sent back next turn. Items reported only whole at `output_item.done`
 * (no deltas, as some compatible servers do) are emitted from there.
 */
export async function* mapResponsesStream(
  events: AsyncIterable<ResponseStreamEvent>,
  ctx: FailureContext,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  const calls = new Map<string, CallState>()
  const reasoning = new Map<string, ReasoningState>()
  const textItems = new Set<string>()
  let sawCall = false

  function* startCall(itemId: string, callId: string, name: string): Generator<StreamEvent, CallState> {
    const call: CallState = { callId: callId || itemId, name, args: '', ended: false }
    calls.set(itemId, call)
    sawCall = true
    yield { type: 'tool-call-start', id: call.callId, name }
    return call
  }

  function* endCall(call: CallState, finalArgs?: string): Generator<StreamEvent> {
    if (call.ended) return
    call.ended = true
    // The done event's arguments are authoritative; deltas may have been cut or re-chunked.
    yield toolCallEnd(call.callId, call.name, finalArgs ?? call.args)
  }

  function* reasoningText(itemId: string, index: number, text: string): Generator<StreamEvent> {
    let state = reasoning.get(itemId)
    if (!state) reasoning.set(itemId, (state = { parts: [], streamed: false }))
    // Summary parts are separate paragraphs; the stored text joins them the way they are shown.
    if (state.parts[index] === undefined && index > 0 && state.streamed) yield { type: 'reasoning-delta', text: '\n\n' }
    state.parts[index] = (state.parts[index] ?? '') + text
    state.streamed = true
    if (text.length > 0) yield { type: 'reasoning-delta', text }
  }

  function* itemDone(item: ResponseOutputItem): Generator<StreamEvent> {
    if (item.type === 'function_call') {
      const key = item.id ?? item.call_id
      const call = calls.get(key) ?? (yield* startCall(key, item.call_id, item.name))
      yield* endCall(call, item.arguments)
      return
    }
    if (item.type === 'message') {
      if (!textItems.has(item.id)) {
        const text = messageText(item)
        if (text.length > 0) yield { type: 'text-delta', text }
      }
      // The sources a web-searching answer cites, after its text (they arrive whole with the item).
      for (const citation of urlCitations(item, ctx.providerId)) yield { type: 'citation', citation }
      return
    }
    if (item.type === 'web_search_call') {
      // A search the provider ran: kept whole, and sent back as it came.
      yield { type: 'provider-block', block: { ...item } as Record<string, unknown> }
      return
    }
    if (item.type !== 'reasoning') return
    const state = reasoning.get(item.id)
    const texts = reasoningTexts(item)
    if (!state?.streamed) for (const [index, text] of texts.entries()) yield* reasoningText(item.id, index, text)
    if (!item.encrypted_content) return
    const end: ReasoningDeltaEvent = {
      type: 'reasoning-delta',
      text: '',
      itemId: item.id,
      encryptedContent: item.encrypted_content,
      summary: (item.summary ?? []).map((s) => s.text),
    }
    yield end
  }

  function* finish(response: Response, reason: FinishReason): Generator<StreamEvent> {
    // An incomplete response may stop inside a call: it ends with what arrived (the loop reports invalid JSON).
    for (const call of calls.values()) yield* endCall(call)
    yield { type: 'usage', usage: responsesUsage(response.usage) }
    const raw = response.status === 'incomplete' ? (response.incomplete_details?.reason ?? 'incomplete') : (response.status ?? 'completed')
    yield { type: 'finish', reason, rawReason: raw }
  }

  for await (const event of events) {
    switch (event.type) {
      case 'response.output_item.added': {
        const { item } = event
        if (item.type === 'function_call') {
          const call = yield* startCall(item.id ?? item.call_id, item.call_id, item.name)
          if (item.arguments) {
            call.args += item.arguments
            yield { type: 'tool-call-delta', id: call.callId, argsDelta: item.arguments }
          }
        }
        break
      }
      case 'response.output_text.delta':
        textItems.add(event.item_id)
        if (event.delta) yield { type: 'text-delta', text: event.delta }
        break
      case 'response.refusal.delta':
        textItems.add(event.item_id)
        if (event.delta) yield { type: 'text-delta', text: event.delta }
        break
      case 'response.reasoning_summary_text.delta':
        yield* reasoningText(event.item_id, event.summary_index, event.delta)
        break
      case 'response.reasoning_text.delta':
        yield* reasoningText(event.item_id, event.content_index, event.delta)
        break
      case 'response.function_call_arguments.delta': {
        const call = calls.get(event.item_id)
        if (call && !call.ended && event.delta) {
          call.args += event.delta
          yield { type: 'tool-call-delta', id: call.callId, argsDelta: event.delta }
        }
        break
      }
      case 'response.function_call_arguments.done': {
        const call = calls.get(event.item_id)
        if (call) yield* endCall(call, event.arguments)
        break
      }
      case 'response.output_item.done':
        yield* itemDone(event.item)
        break
      case 'response.completed':
        yield* finish(event.response, sawCall ? 'tool_calls' : 'stop')
        return
      case 'response.incomplete':
        yield* finish(event.response, incompleteReason(event.response.incomplete_details?.reason))
        return
      case 'response.failed':
        throw responsesStreamFailure(event.response.error, ctx)
      case 'error': {
        // Recorded streams nest the details under `error`; the documented event is flat.
        const nested = (event as { error?: { code?: string | null; message?: string | null; type?: string | null } }).error
        throw responsesStreamFailure(nested ?? event, ctx)
      }
      case 'response.created':
      case 'response.queued':
      case 'response.in_progress':
        // Lifecycle: the response's end is what counts.
        break
      case 'response.content_part.added':
      case 'response.content_part.done':
      case 'response.output_text.done':
      case 'response.output_text.annotation.added':
      case 'response.refusal.done':
      case 'response.reasoning_summary_part.added':
      case 'response.reasoning_summary_part.done':
      case 'response.reasoning_summary_text.done':
      case 'response.reasoning_text.done':
        // These repeat what the deltas carried; a message's annotations (citations) and a reasoning item's
        // summary parts arrive whole with `response.output_item.done`.
        break
      case 'response.web_search_call.in_progress':
      case 'response.web_search_call.searching':
      case 'response.web_search_call.completed':
        // A web search's progress: the search arrives whole as its item's `response.output_item.done`.
        break
      case 'response.audio.delta':
      case 'response.audio.done':
      case 'response.audio.transcript.delta':
      case 'response.audio.transcript.done':
      case 'response.code_interpreter_call.in_progress':
      case 'response.code_interpreter_call.interpreting':
      case 'response.code_interpreter_call.completed':
      case 'response.code_interpreter_call_code.delta':
      case 'response.code_interpreter_call_code.done':
      case 'response.compaction.compacting':
      case 'response.custom_tool_call_input.delta':
      case 'response.custom_tool_call_input.done':
      case 'response.file_search_call.in_progress':
      case 'response.file_search_call.searching':
      case 'response.file_search_call.completed':
      case 'response.image_generation_call.in_progress':
      case 'response.image_generation_call.generating':
      case 'response.image_generation_call.partial_image':
      case 'response.image_generation_call.completed':
      case 'response.mcp_call.in_progress':
      case 'response.mcp_call.completed':
      case 'response.mcp_call.failed':
      case 'response.mcp_call_arguments.delta':
      case 'response.mcp_call_arguments.done':
      case 'response.mcp_list_tools.in_progress':
      case 'response.mcp_list_tools.completed':
      case 'response.mcp_list_tools.failed':
      case 'response.shell_call_command.added':
      case 'response.shell_call_command.delta':
      case 'response.shell_call_command.done':
      case 'response.shell_call_output_content.delta':
      case 'response.shell_call_output_content.done':
        // Tools and modalities no request enables: hosted tools other than web search, custom (grammar) tools,
        // audio output, and server-side compaction.
        break
      default:
        // An event newer than this SDK's types, or a compatible server's own (keep-alives): nothing we read.
        break
    }
  }
  if (signal?.aborted) throw abortedError(ctx.providerId, ctx.model)
  throw streamInterrupted(undefined, ctx, 'the stream ended before response.completed')
}

/** A non-streamed response → a completion. */
export function responsesCompletion(response: Response, ctx: FailureContext): Completion {
  if (response.status === 'failed') throw responsesStreamFailure(response.error, ctx)
  let text = ''
  const reasoning: string[] = []
  const toolCalls: ToolCallEndEvent[] = []
  for (const item of response.output ?? []) {
    if (item.type === 'message') text += messageText(item)
    else if (item.type === 'reasoning') reasoning.push(...reasoningTexts(item))
    else if (item.type === 'function_call') toolCalls.push(toolCallEnd(item.call_id, item.name, item.arguments))
  }
  const finishReason: FinishReason =
    response.status === 'incomplete' ? incompleteReason(response.incomplete_details?.reason) : toolCalls.length > 0 ? 'tool_calls' : 'stop'
  return { text, reasoning: reasoning.join('\n\n'), toolCalls, usage: responsesUsage(response.usage), finishReason }
}
