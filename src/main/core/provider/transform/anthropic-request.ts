import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  TextBlockParam,
  TextCitationParam,
  ThinkingConfigParam,
  ToolResultBlockParam,
  ToolUnion,
  WebSearchTool20250305,
} from '@anthropic-ai/sdk/resources/messages'
import type { Effort } from '@shared/schema/effort'
import type { ModelInfo } from '../catalog'
import type { AnthropicEffortValue } from '../catalog-data'
import { clampEffort } from '../reasoning'
import type { ChatRequest, ImagePart, ModelMessage, ServerTool, TextPart, ToolResultPart } from '../types'
import { cleanMessages, isPlainObject, systemBlocks } from './clean-messages'
import { imageNotes } from './image-blocks'
import { resolveMaxTokens } from './request-limits'
import { toolCallIdFor } from './tool-call-id'

/** Anthropic accepts at most 4 cache breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4

const EPHEMERAL = { type: 'ephemeral' } as const

/** Manual budgets per effort; capped below max_tokens (see `budgetFor`). */
const THINKING_BUDGET: Record<Exclude<Effort, 'off'>, number> = { low: 4_000, medium: 12_000, high: 32_000, max: 64_000 }
const MIN_THINKING_BUDGET = 1_024

/**
 * The Messages API body. The API version this SDK sends (`anthropic-version`) rejects
 * `temperature`, `top_p` and `top_k`, and its typed params no longer list them: none of
 * them is ever sent to Anthropic, whatever the request asks.
 */
export type AnthropicParams = Omit<MessageCreateParamsBase, 'stream'>

/** Images the model or the API cannot take, each with the note sent in its place (see `imageNotes`). */
type ImageNotes = ReadonlyMap<ImagePart, string>

function userBlock(part: TextPart | ImagePart, notes: ImageNotes): TextBlockParam | ImageBlockParam {
  if (part.type === 'text') return { type: 'text', text: part.text }
  const note = notes.get(part)
  if (note !== undefined) return { type: 'text', text: note }
  return { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } }
}

function toolResultBlock(part: ToolResultPart, notes: ImageNotes): ToolResultBlockParam {
  const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: toolCallIdFor(part.toolCallId, 'anthropic') }
  if (typeof part.output === 'string') {
    // An empty string is legal but an empty text block is not: leave content out instead.
    if (part.output.length > 0) block.content = part.output
  } else {
    const blocks = part.output.filter((p) => p.type !== 'text' || p.text.trim().length > 0).map((p) => userBlock(p, notes))
    if (blocks.length > 0) block.content = blocks
  }
  if (part.isError) block.is_error = true
  return block
}

function assistantBlocks(message: Extract<ModelMessage, { role: 'assistant' }>, providerId: string): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = []
  for (const part of message.content) {
    if (part.type === 'text') {
      // Citations are the provider's own (encrypted indexes into its search results): only back to it.
      const citations = (part.citations ?? []).filter((c) => c.providerId === providerId).map((c) => c.raw as unknown as TextCitationParam)
      blocks.push(citations.length > 0 ? { type: 'text', text: part.text, citations } : { type: 'text', text: part.text })
    } else if (part.type === 'provider-block') {
      // Server tool calls and results go back exactly as they came, to their own provider only.
      if (part.providerId === providerId) blocks.push(part.block as unknown as ContentBlockParam)
    } else if (part.type === 'reasoning') {
      // Thinking is only valid back at Anthropic with its signature; reasoning from
      // another provider (no signature, or tagged with another provider) is dropped.
      if (part.providerId !== undefined && part.providerId !== providerId) continue
      if (part.redactedData) blocks.push({ type: 'redacted_thinking', data: part.redactedData })
      else if (part.signature) blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature })
    } else {
      blocks.push({
        type: 'tool_use',
        id: toolCallIdFor(part.id, 'anthropic'),
        name: part.name,
        // Anthropic requires an object; invalid arguments the model produced become {}.
        input: isPlainObject(part.input) ? part.input : {},
      })
    }
  }
  return blocks
}

const isThinking = (block: ContentBlockParam): boolean => block.type === 'thinking' || block.type === 'redacted_thinking'

/** The API refuses thinking anywhere but first in an assistant turn; such thinking (text came first) is left out. */
function thinkingFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  const first = blocks[0]
  if (!first || isThinking(first) || !blocks.some(isThinking)) return blocks
  return blocks.filter((b) => !isThinking(b))
}

/** Neutral messages → Anthropic messages; tool results become user turns, merged with adjacent user turns. */
export function toAnthropicMessages(messages: readonly ModelMessage[], model: ModelInfo): MessageParam[] {
  const out: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = []
  const cleaned = cleanMessages(messages)
  const notes = imageNotes(cleaned, model, 'anthropic')
  for (const message of cleaned) {
    const role = message.role === 'assistant' ? 'assistant' : 'user'
    const content: ContentBlockParam[] =
      message.role === 'assistant'
        ? assistantBlocks(message, model.providerId)
        : message.role === 'tool'
          ? message.content.map((part) => toolResultBlock(part, notes))
          : message.content.map((part) => userBlock(part, notes))
    if (content.length === 0) continue
    const previous = out[out.length - 1]
    if (previous && previous.role === role) previous.content.push(...content)
    else out.push({ role, content })
  }
  // Adjacent assistant messages merge into one turn: check the merged turn.
  return out.map((m) => (m.role === 'assistant' ? { role: m.role, content: thinkingFirst(m.content) } : m))
}

/** The beta that lets Claude 4 manual-budget models think between tool calls. */
export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14'

/** What a request's effort turns into on the Messages API. */
export interface AnthropicReasoning {
  thinking?: ThinkingConfigParam
  effort?: AnthropicEffortValue
  /** Send the interleaved-thinking beta header. */
  interleaved: boolean
}

/**
 * With budget thinking on, an assistant turn in the middle of a tool loop must start with a
 * thinking block; history written by another model has none, so such a request goes
 * without thinking (the next user turn thinks again). Adaptive thinking has no such rule
 * (the model itself may skip thinking on a step), and one thinking configuration is kept
 * for the whole tool loop: changing it mid-loop would also drop the cached messages.
 */
function toolLoopLacksThinking(messages: MessageParam[]): boolean {
  const last = messages[messages.length - 1]
  const prior = messages[messages.length - 2]
  if (last?.role !== 'user' || prior?.role !== 'assistant' || !Array.isArray(prior.content)) return false
  if (!Array.isArray(last.content) || !last.content.some((b) => b.type === 'tool_result')) return false
  const first = prior.content[0]
  const startsWithThinking = first?.type === 'thinking' || first?.type === 'redacted_thinking'
  return prior.content.some((b) => b.type === 'tool_use') && !startsWithThinking
}

function budgetFor(request: ChatRequest, effort: Exclude<Effort, 'off'>, maxTokens: number): number | undefined {
  const wanted = request.reasoning?.budgetTokens ?? THINKING_BUDGET[effort]
  // The budget counts against max_tokens and must stay below it, with room left for the answer.
  const room = Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens / 4))
  const budget = Math.min(wanted, maxTokens - room)
  return budget < MIN_THINKING_BUDGET ? undefined : budget
}

/** The effort of a request on the Messages API, per the model's reasoning kind. */
export function anthropicReasoning(
  request: ChatRequest,
  model: ModelInfo,
  messages: MessageParam[],
  maxTokens: number,
): AnthropicReasoning {
  const none: AnthropicReasoning = { interleaved: false }
  const capability = model.reasoning
  if (!request.reasoning) return none
  const effort = clampEffort(capability, request.reasoning.effort)
  if (capability.kind === 'anthropic-adaptive') {
    const disabled: AnthropicReasoning =
      capability.off === 'disable' ? { thinking: { type: 'disabled' }, interleaved: false } : none
    if (effort === 'off') return disabled
    const wire: AnthropicEffortValue = effort === 'max' && !capability.effort.includes('max') ? 'xhigh' : effort
    return { thinking: { type: 'adaptive' }, effort: wire, interleaved: false }
  }
  if (capability.kind !== 'anthropic-budget' || effort === 'off') return none
  if (toolLoopLacksThinking(messages)) return none
  const budget = budgetFor(request, effort, maxTokens)
  if (budget === undefined) return none
  const usesTools = (request.tools?.length ?? 0) > 0
  return { thinking: { type: 'enabled', budget_tokens: budget }, interleaved: capability.interleaved && usesTools }
}

/** Extra headers a request needs (the interleaved-thinking beta); undefined when none. */
export function anthropicHeaders(request: ChatRequest, model: ModelInfo): Record<string, string> | undefined {
  const messages = toAnthropicMessages(request.messages, model)
  const { interleaved } = anthropicReasoning(request, model, messages, thinkingMaxTokens(request, model))
  return interleaved ? { 'anthropic-beta': INTERLEAVED_THINKING_BETA } : undefined
}

function thinkingMaxTokens(request: ChatRequest, model: ModelInfo): number {
  // Thinking counts against max_tokens: without an explicit limit, give it the model's whole output.
  return request.maxTokens ?? model.limit.output
}

/**
 * Web search as the Messages API's server tool. `web_search_20250305` is the version every
 * current Claude model takes; the later versions filter results with code execution, which
 * needs a container and is billed separately.
 */
export function anthropicServerTool(tool: ServerTool): WebSearchTool20250305 {
  const out: WebSearchTool20250305 = { type: 'web_search_20250305', name: 'web_search' }
  if (tool.maxUses !== undefined) out.max_uses = tool.maxUses
  // The API takes one list or the other, never both.
  if (tool.allowedDomains && tool.allowedDomains.length > 0) out.allowed_domains = tool.allowedDomains
  else if (tool.blockedDomains && tool.blockedDomains.length > 0) out.blocked_domains = tool.blockedDomains
  return out
}

/** Marks the last block of the last two user turns; returns how many marks it placed. */
function markRecentUserTurns(messages: MessageParam[], available: number): number {
  let placed = 0
  for (let i = messages.length - 1; i >= 0 && placed < Math.min(2, available); i--) {
    const message = messages[i]
    if (message?.role !== 'user' || !Array.isArray(message.content)) continue
    const last = message.content[message.content.length - 1]
    // User turns we build hold only these block types; all of them take a breakpoint.
    if (last?.type === 'text' || last?.type === 'image' || last?.type === 'tool_result') {
      last.cache_control = EPHEMERAL
      placed++
    }
  }
  return placed
}

/**
 * The Messages API body for a neutral request. Prompt caching marks the system
 * prompt, the last tool and the last two user turns (4 breakpoints, the API's
 * maximum): the stable prefix and the conversation so far are read from cache on
 * the next turn instead of billed again.
 */
export function toAnthropicParams(request: ChatRequest, model: ModelInfo): AnthropicParams {
  const messages = toAnthropicMessages(request.messages, model)
  const maxTokens = thinkingMaxTokens(request, model)
  const reasoning = anthropicReasoning(request, model, messages, maxTokens)
  const thinks = reasoning.thinking !== undefined && reasoning.thinking.type !== 'disabled'
  const cache = request.promptCache !== false

  const params: AnthropicParams = {
    model: model.modelId,
    max_tokens: thinks ? maxTokens : resolveMaxTokens(request, model),
    messages,
  }
  let breakpoints = 0
  const system = systemBlocks(request.system)
  if (system.length > 0) {
    const blocks: TextBlockParam[] = system.map((text) => ({ type: 'text', text }))
    const last = blocks[blocks.length - 1]
    if (cache && last) {
      last.cache_control = EPHEMERAL
      breakpoints++
    }
    params.system = blocks
  }
  const tools: ToolUnion[] = [
    ...(request.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: { ...tool.inputSchema, type: 'object' as const },
    })),
    ...(request.serverTools ?? []).map(anthropicServerTool),
  ]
  if (tools.length > 0) {
    const last = tools[tools.length - 1]
    if (cache && last) {
      last.cache_control = EPHEMERAL
      breakpoints++
    }
    params.tools = tools
  }
  if (cache) markRecentUserTurns(messages, MAX_CACHE_BREAKPOINTS - breakpoints)
  if (reasoning.thinking) params.thinking = reasoning.thinking
  // Adaptive thinking takes the effort level instead of a token budget.
  if (reasoning.effort) params.output_config = { effort: reasoning.effort }
  return params
}
