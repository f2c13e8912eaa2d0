import type {
  FunctionTool,
  ResponseCreateParamsBase,
  ResponseFunctionCallOutputItemList,
  ResponseInputContent,
  ResponseInputItem,
  WebSearchTool,
} from 'openai/resources/responses/responses'
import type { ModelInfo } from '../catalog'
import type { ProviderPreset } from '../presets'
import type { ChatRequest, ImagePart, ModelMessage, ReasoningPart, TextPart, ToolResultPart } from '../types'
import { cleanMessages, isPlainObject, systemBlocks } from './clean-messages'
import { openaiEffortValue } from './openai-reasoning'
import { imageNotes } from './image-blocks'
import { resolveMaxTokens } from './request-limits'
import { toolCallIdFor } from './tool-call-id'

export type ResponsesParams = Omit<ResponseCreateParamsBase, 'stream'>

function imageUrl(part: ImagePart): string {
  return `data:${part.mediaType};base64,${part.data}`
}

/** Images the model or the API cannot take, each with the note sent in its place (see `imageNotes`). */
type ImageNotes = ReadonlyMap<ImagePart, string>

function userContent(parts: Array<TextPart | ImagePart>, notes: ImageNotes): ResponseInputContent[] {
  return parts.map((part): ResponseInputContent => {
    if (part.type === 'text') return { type: 'input_text', text: part.text }
    const note = notes.get(part)
    if (note !== undefined) return { type: 'input_text', text: note }
    return { type: 'input_image', image_url: imageUrl(part), detail: 'auto' }
  })
}

/** A tool's output: plain text, or text and images as the Responses API takes them (function outputs may hold images). */
function toolOutput(output: ToolResultPart['output'], notes: ImageNotes): string | ResponseFunctionCallOutputItemList {
  if (typeof output === 'string') return output
  if (!output.some((p) => p.type === 'image')) return output.map((p) => (p.type === 'text' ? p.text : '')).join('\n')
  return output.map((part) => {
    if (part.type === 'text') return { type: 'input_text' as const, text: part.text }
    const note = notes.get(part)
    if (note !== undefined) return { type: 'input_text' as const, text: note }
    return { type: 'input_image' as const, image_url: imageUrl(part), detail: 'auto' as const }
  })
}

/**
 * A stored reasoning item goes back only to the provider that produced it, and only with its
 * encrypted content: with `store: false` the server keeps nothing, so an item without it is
 * answered "Item with id … not found".
 */
function reasoningItem(part: ReasoningPart, preset: ProviderPreset): ResponseInputItem | undefined {
  if (part.providerId !== preset.id || !part.itemId || !part.encryptedContent) return undefined
  const summary = part.summary ?? (part.text.length > 0 ? [part.text] : [])
  return {
    type: 'reasoning',
    id: part.itemId,
    summary: summary.map((text) => ({ type: 'summary_text' as const, text })),
    encrypted_content: part.encryptedContent,
  }
}

/**
 * An assistant message as input items. A reasoning item is sent only when an item it led to
 * (text or a call) follows it: the API refuses one "provided without its required following item".
 */
function assistantItems(message: Extract<ModelMessage, { role: 'assistant' }>, preset: ProviderPreset): ResponseInputItem[] {
  const items: ResponseInputItem[] = []
  let reasoning: ResponseInputItem[] = []
  const push = (item: ResponseInputItem): void => {
    items.push(...reasoning, item)
    reasoning = []
  }
  for (const part of message.content) {
    if (part.type === 'reasoning') {
      const item = reasoningItem(part, preset)
      if (item) reasoning.push(item)
    } else if (part.type === 'text') {
      push({ type: 'message', role: 'assistant', content: part.text })
    } else if (part.type === 'provider-block') {
      // Server tool items (a web search call) go back as they came, to their own provider only.
      if (part.providerId === preset.id) push(part.block as unknown as ResponseInputItem)
    } else {
      push({
        type: 'function_call',
        call_id: toolCallIdFor(part.id, preset.kind),
        name: part.name,
        arguments: JSON.stringify(isPlainObject(part.input) ? part.input : {}),
      })
    }
  }
  return items
}

export function toResponsesInput(request: ChatRequest, model: ModelInfo, preset: ProviderPreset): ResponseInputItem[] {
  const input: ResponseInputItem[] = []
  const messages = cleanMessages(request.messages)
  const notes = imageNotes(messages, model, preset.kind)
  for (const message of messages) {
    if (message.role === 'user') {
      input.push({ type: 'message', role: 'user', content: userContent(message.content, notes) })
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        input.push({ type: 'function_call_output', call_id: toolCallIdFor(part.toolCallId, preset.kind), output: toolOutput(part.output, notes) })
      }
    } else {
      input.push(...assistantItems(message, preset))
    }
  }
  return input
}

/** OpenAI's reasoning models: they take an effort, return reasoning items and reject `temperature`. */
export function isResponsesReasoningModel(model: ModelInfo): boolean {
  return model.reasoning.kind === 'openai-effort' || /codex/i.test(model.modelId) || /^(o\d|gpt-[56])/.test(model.modelId)
}

export function toResponsesParams(request: ChatRequest, model: ModelInfo, preset: ProviderPreset): ResponsesParams {
  const params: ResponsesParams = {
    model: model.modelId,
    input: toResponsesInput(request, model, preset),
    max_output_tokens: resolveMaxTokens(request, model),
    // Nothing is kept on the server: every request carries the whole transcript, reasoning included.
    store: false,
  }
  const system = systemBlocks(request.system)
  if (system.length > 0) params.instructions = system.join('\n\n')
  const reasoningModel = isResponsesReasoningModel(model)
  if (reasoningModel) {
    // Summaries are what the user sees of the reasoning; the encrypted item is what the model gets back next turn.
    // `max` is the model's top value (`xhigh` on codex-max, else `high`), `off` its `none` or lowest.
    const effort = openaiEffortValue(request, model)
    params.reasoning = effort ? { effort, summary: 'auto' } : { summary: 'auto' }
    params.include = ['reasoning.encrypted_content']
  } else if (request.temperature !== undefined) {
    params.temperature = request.temperature
  }
  if (request.cacheKey) params.prompt_cache_key = request.cacheKey
  const serverTools = (request.serverTools ?? []).map(
    (tool): WebSearchTool => (tool.allowedDomains?.length ? { type: 'web_search', filters: { allowed_domains: tool.allowedDomains } } : { type: 'web_search' }),
  )
  if (serverTools.length > 0) {
    // The sources each search read, for the results list (the answer's citations name only what it cites).
    params.include = [...(params.include ?? []), 'web_search_call.action.sources']
    params.tools = serverTools
  }
  if (request.tools && request.tools.length > 0) {
    params.tools = [...(params.tools ?? []), ...request.tools.map(
      (tool): FunctionTool => ({
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.inputSchema,
        // Strict mode would require every property and forbid extras; our schemas do not promise that.
        strict: false,
      }),
    )]
  }
  return params
}
