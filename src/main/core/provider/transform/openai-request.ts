import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions'
import type { ModelInfo } from '../catalog'
import type { ProviderPreset } from '../presets'
import type { ChatRequest, ImagePart, ModelMessage, ReasoningPart, TextPart, ToolResultPart } from '../types'
import { clampEffort } from '../reasoning'
import { cleanMessages, isPlainObject, systemBlocks } from './clean-messages'
import { imageNotes } from './image-blocks'
import { compatReasoningFields, openaiEffortValue } from './openai-reasoning'
import { resolveMaxTokens } from './request-limits'
import { toolCallIdFor } from './tool-call-id'

export type OpenAIParams = Omit<ChatCompletionCreateParamsBase, 'stream' | 'stream_options'>

/** A tool call as sent back, with Gemini's `extra_content` where the call was signed. */
type SignedToolCall = ChatCompletionMessageFunctionToolCall & { extra_content?: { google: { thought_signature: string } } }

/** An assistant message that may carry the provider's own reasoning field. */
type AssistantWithReasoning = ChatCompletionAssistantMessageParam & { reasoning_content?: string; reasoning?: string }

/** Images the model or the API cannot take, each with the note sent in its place (see `imageNotes`). */
type ImageNotes = ReadonlyMap<ImagePart, string>

function imageContent(part: ImagePart, notes: ImageNotes): ChatCompletionContentPart {
  const note = notes.get(part)
  if (note !== undefined) return { type: 'text', text: note }
  return { type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${part.data}` } }
}

function userContent(parts: Array<TextPart | ImagePart>, notes: ImageNotes): string | ChatCompletionContentPart[] {
  const texts = parts.flatMap((p) => (p.type === 'text' ? [p.text] : []))
  if (texts.length === parts.length) return texts.join('\n\n')
  return parts.map((part): ChatCompletionContentPart => (part.type === 'text' ? { type: 'text', text: part.text } : imageContent(part, notes)))
}

/**
 * A tool result as Chat Completions takes it: tool messages carry text only, so the images a tool returned go
 * in a user message right after the results (`images`), and the result's text says so.
 */
function toolOutput(output: ToolResultPart['output'], notes: ImageNotes): { text: string; images: ImagePart[] } {
  if (typeof output === 'string') return { text: output, images: [] }
  const images: ImagePart[] = []
  const text = output.map((p) => {
    if (p.type === 'text') return p.text
    const note = notes.get(p)
    if (note !== undefined) return note
    images.push(p)
    return `[image ${images.length} of this result is attached in the next user message]`
  })
  return { text: text.join('\n'), images }
}

function reasoningToSend(parts: ReasoningPart[], preset: ProviderPreset): string | undefined {
  const text = parts
    .filter((p) => p.providerId === undefined || p.providerId === preset.id)
    .filter((p) => p.signature === undefined && p.redactedData === undefined)
    .map((p) => p.text)
    .join('')
  return text.length > 0 ? text : undefined
}

function assistantMessage(
  message: Extract<ModelMessage, { role: 'assistant' }>,
  preset: ProviderPreset,
  model: ModelInfo,
): AssistantWithReasoning | undefined {
  const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('')
  const calls = message.content.flatMap((p) => (p.type === 'tool-call' ? [p] : []))
  const out: AssistantWithReasoning = { role: 'assistant', content: text.length > 0 ? text : null }
  if (calls.length > 0) {
    out.tool_calls = calls.map((call): SignedToolCall => ({
      id: toolCallIdFor(call.id, preset.kind),
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(isPlainObject(call.input) ? call.input : {}) },
      // Gemini checks the thought signature of each call it made; no other provider sees one.
      ...(call.signature && call.providerId === preset.id ? { extra_content: { google: { thought_signature: call.signature } } } : {}),
    }))
  }
  // Reasoning is provider-private: only the provider's own field, only where it asks for it.
  if (preset.reasoning?.sendBack === 'always') {
    const reasoning = reasoningToSend(
      message.content.filter((p): p is ReasoningPart => p.type === 'reasoning'),
      preset,
    )
    // A thinking model wants the field on every tool-call message, even one another model wrote (empty then);
    // a model known not to think gets only reasoning that exists.
    const thinking = model.capabilities.reasoning || !model.known
    if (reasoning !== undefined || (calls.length > 0 && thinking)) out[preset.reasoning.field] = reasoning ?? ''
  }
  if (out.content === null && out.tool_calls === undefined) return undefined
  return out
}

export function toOpenAIMessages(request: ChatRequest, model: ModelInfo, preset: ProviderPreset): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = []
  const system = systemBlocks(request.system)
  if (system.length > 0) out.push({ role: 'system', content: system.join('\n\n') })
  const messages = cleanMessages(request.messages)
  const notes = imageNotes(messages, model, preset.kind)
  for (const message of messages) {
    if (message.role === 'user') {
      out.push({ role: 'user', content: userContent(message.content, notes) })
    } else if (message.role === 'tool') {
      const attached: ChatCompletionContentPart[] = []
      for (const part of message.content) {
        const id = toolCallIdFor(part.toolCallId, preset.kind)
        const { text, images } = toolOutput(part.output, notes)
        out.push({ role: 'tool', tool_call_id: id, content: text })
        if (images.length === 0) continue
        attached.push({ type: 'text', text: `Images returned by the ${part.toolName} call ${id}:` }, ...images.map((image) => imageContent(image, notes)))
      }
      // All tool messages of a step come first: the API wants every call answered before anything else.
      if (attached.length > 0) out.push({ role: 'user', content: attached })
    } else {
      const assistant = assistantMessage(message, preset, model)
      if (assistant) out.push(assistant)
    }
  }
  return out
}

/** OpenAI's reasoning models reject `max_tokens` and any temperature but the default. */
function isOpenAIReasoningModel(preset: ProviderPreset, model: ModelInfo): boolean {
  return preset.kind === 'openai' && (model.capabilities.reasoning || /^(o\d|gpt-[56])/.test(model.modelId))
}

/** True when the request has the model reason (temperature is then never sent). */
function reasons(request: ChatRequest, model: ModelInfo): boolean {
  return request.reasoning !== undefined && model.capabilities.reasoning && clampEffort(model.reasoning, request.reasoning.effort) !== 'off'
}

export function toOpenAIParams(request: ChatRequest, model: ModelInfo, preset: ProviderPreset): OpenAIParams {
  const params: OpenAIParams = {
    model: model.modelId,
    messages: toOpenAIMessages(request, model, preset),
  }
  const maxTokens = resolveMaxTokens(request, model)
  const reasoningModel = isOpenAIReasoningModel(preset, model)
  // OpenAI itself wants max_completion_tokens; most compatible servers only know max_tokens.
  if (preset.kind === 'openai') params.max_completion_tokens = maxTokens
  else params.max_tokens = maxTokens
  if (request.temperature !== undefined && !reasoningModel && !reasons(request, model)) params.temperature = request.temperature
  if (preset.kind === 'openai') {
    const effort = openaiEffortValue(request, model)
    if (effort) params.reasoning_effort = effort
  } else {
    Object.assign(params, compatReasoningFields(request, model, preset))
  }
  // OpenAI routes requests with one key to one prompt cache; compatible servers may reject the field.
  if (preset.kind === 'openai' && request.cacheKey) params.prompt_cache_key = request.cacheKey
  if (request.tools && request.tools.length > 0) {
    params.tools = request.tools.map(
      (tool): ChatCompletionTool => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      }),
    )
  }
  return params
}
