import type { ProviderSettings } from './settings'
import type { ErrorData } from '@shared/errors'
import type { Usage } from '@shared/schema/session'
import type { Effort } from '@shared/schema/effort'

/**
 * The provider-neutral conversation format. The agent loop stores and sends only
 * these shapes; each provider adapter translates them to its wire format right
 * before a call (see `anthropic-request.ts`, `openai-request.ts`).
 */

export interface TextPart {
  type: 'text'
  text: string
  /** Sources the provider cited for this text (web search results); sent back only to that provider. */
  citations?: Citation[]
}

/**
 * A source a provider cited for a span of its answer. `raw` is the provider's own
 * citation object (Anthropic's carries an `encrypted_index`), sent back unchanged.
 */
export interface Citation {
  url: string
  title?: string
  citedText?: string
  providerId: string
  raw: Record<string, unknown>
}

/**
 * A content block only its provider understands: a server tool's call or result
 * (`server_tool_use`, `web_search_tool_result`) or a block type this version does not
 * know. It goes back to that provider exactly as received, in place (a paused turn is
 * continued by sending them back as-is), and is dropped for any other provider.
 */
export interface ProviderBlockPart {
  type: 'provider-block'
  providerId: string
  block: Record<string, unknown>
}

/** Base64 image data; dropped (with a note) for models that do not take images. */
export interface ImagePart {
  type: 'image'
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'
  data: string
  /** Where known (images the user attached); otherwise read from the data's header when needed. */
  width?: number
  height?: number
  /** The file's name, for notes that replace an image a model cannot take. */
  name?: string
}

/**
 * Model reasoning. Anthropic thinking carries a `signature` (or `redactedData` for a
 * redacted block) that must be sent back unchanged; a Responses API reasoning item
 * carries its `itemId`, `encryptedContent` and `summary` (the summary parts `text`
 * joins), sent back as a `reasoning` input item; reasoning from other providers has
 * none of these. `providerId` records which provider produced it so it is only sent
 * back to that provider (reasoning is provider-private; another provider would reject
 * or misread it).
 */
export interface ReasoningPart {
  type: 'reasoning'
  text: string
  signature?: string
  redactedData?: string
  providerId?: string
  itemId?: string
  encryptedContent?: string
  summary?: string[]
}

export interface ToolCallPart {
  type: 'tool-call'
  /** The id as the model produced it; adapters map it to a valid id per provider. */
  id: string
  name: string
  /** The parsed arguments; anything that is not a JSON object is sent as `{}`. */
  input: unknown
  /**
   * Gemini's thought signature for this call (`extra_content.google.thought_signature` on its OpenAI
   * endpoint): sent back with the call, to the provider that made it only.
   */
  signature?: string
  providerId?: string
}

export interface ToolResultPart {
  type: 'tool-result'
  toolCallId: string
  toolName: string
  output: string | Array<TextPart | ImagePart>
  isError?: boolean
}

export interface UserMessage {
  role: 'user'
  content: Array<TextPart | ImagePart>
}

export interface AssistantMessage {
  role: 'assistant'
  content: Array<TextPart | ReasoningPart | ToolCallPart | ProviderBlockPart>
}

/** Results of the previous assistant message's tool calls, one part per call. */
export interface ToolMessage {
  role: 'tool'
  content: ToolResultPart[]
}

export type ModelMessage = UserMessage | AssistantMessage | ToolMessage

export interface ToolDefinition {
  name: string
  description: string
  /** JSON schema of the arguments object (`type: 'object'`). */
  inputSchema: Record<string, unknown>
}

/**
 * A tool that runs on the provider's servers, enabled for one request. Only web search
 * exists; adapters whose API has none reject the request (see `webSearchApi`).
 */
export interface WebSearchServerTool {
  type: 'web_search'
  /** How many searches the model may run in this request. */
  maxUses?: number
  /** Only results from these domains (and their subdomains). */
  allowedDomains?: string[]
  /** Never results from these domains. */
  blockedDomains?: string[]
}

export type ServerTool = WebSearchServerTool

export type ReasoningEffort = Effort

export interface ChatRequest {
  /** `provider/model`, e.g. `anthropic/claude-sonnet-4-5`. */
  model: string
  /** Several blocks let a caller keep a stable prefix (cached) apart from volatile facts. */
  system?: string | string[]
  messages: ModelMessage[]
  tools?: ToolDefinition[]
  /** Tools the provider runs itself (web search); the model's use of them arrives as `provider-block` events. */
  serverTools?: ServerTool[]
  /** Defaults to the model's output limit, capped at 32k. */
  maxTokens?: number
  /** Sent to providers that accept it; never to Anthropic, whose API version rejects it. */
  temperature?: number
  /**
   * How hard the model reasons, mapped per provider (see `reasoning.ts`); ignored by
   * models without reasoning. Absent sends nothing, which leaves the provider's own
   * default (some models think unless told not to): background calls pass `off`.
   * `budgetTokens` overrides the budget of manual-budget models.
   */
  reasoning?: { effort: ReasoningEffort; budgetTokens?: number }
  /** Anthropic prompt-caching breakpoints; on by default. */
  promptCache?: boolean
  /**
   * Groups requests that share a prompt prefix (the session id) so OpenAI routes them to the
   * same cache (`prompt_cache_key`); other providers ignore it.
   */
  cacheKey?: string
  signal?: AbortSignal
  /** The project's provider settings (`config.provider`); each request brings its own, nothing app-wide is changed. */
  settings?: ProviderSettings
}

/** Token counts (the wire type stored on messages). `input` excludes cached tokens: total prompt = input + cacheRead + cacheWrite. */
export type { Usage }

/**
 * Why a response ended. `length`: the output limit (`max_tokens`) cut it; `context_window`: the
 * context window filled up while the model wrote (Anthropic `model_context_window_exceeded`);
 * `refusal`: the model (or a safety classifier) declined; `content_filter`: the provider's
 * filter withheld the rest; `pause`: a long server-tool turn paused, to be sent back as-is.
 */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'context_window' | 'content_filter' | 'refusal' | 'pause' | 'other'

/**
 * The one normalized stream the agent loop consumes.
 *
 * - Text and reasoning arrive as deltas; a text or reasoning part ends at any event of
 *   another type. A reasoning part also ends at the delta that carries `signature` or
 *   `redactedData` (those deltas have empty `text`).
 * - A tool call is `tool-call-start`, any number of `tool-call-delta`, then exactly one
 *   `tool-call-end` with the parsed `input` or, when the model produced invalid JSON,
 *   `inputError` (the stream goes on: the loop answers the call with an error result).
 *   `tool-call-end` is emitted as soon as the call is complete, before later calls.
 * - `provider-block` carries one complete block of the provider's own (a server tool's
 *   call or result), in stream order; it ends a text or reasoning part. The consumer keeps
 *   it in place as a `ProviderBlockPart` so it can be sent back unchanged.
 * - A text block that cites sources streams its deltas with `cited: true` and ends with its
 *   `citation` events (the API sends them whole only by the block's end). A text part
 *   starts anew where `cited` changes and ends after citations, so each cited span stays
 *   its own part and goes back with exactly its citations.
 * - A successful attempt ends with one `usage` then one `finish`; `detail` is the provider's
 *   own explanation of the stop when it gives one (Anthropic's refusal `stop_details`).
 * - `retry` announces a retry before its delay. `attempt-reset` (emitted just before
 *   that `retry` only if the failed attempt had produced output) means: discard every
 *   text/reasoning/tool-call event received since the last `attempt-reset` or the start
 *   of the stream; the next attempt starts over. An attempt that already completed a
 *   tool call is never retried (the loop may be running that tool); it fails with
 *   `ProviderStreamInterrupted` so the loop keeps what it has instead.
 * - Failures are thrown from the iterator as `HotaruError` (see `ProviderErrorNames`);
 *   aborting the request's signal throws `Aborted` promptly and never retries.
 */
export type StreamEvent =
  | { type: 'text-delta'; text: string; cited?: true }
  | ReasoningDeltaEvent
  | { type: 'tool-call-start'; id: string; name: string }
  | { type: 'tool-call-delta'; id: string; argsDelta: string }
  | ToolCallEndEvent
  | { type: 'provider-block'; block: Record<string, unknown> }
  | { type: 'citation'; citation: Citation }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: FinishReason; rawReason?: string; detail?: string }
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; error: ErrorData }
  | { type: 'attempt-reset' }

export interface ReasoningDeltaEvent {
  type: 'reasoning-delta'
  text: string
  signature?: string
  redactedData?: string
  itemId?: string
  encryptedContent?: string
  summary?: string[]
}

/** `signature`: the provider's opaque signature of the call (Gemini), kept with it and sent back. */
export type ToolCallEndEvent =
  | { type: 'tool-call-end'; id: string; name: string; input: unknown; signature?: string }
  | { type: 'tool-call-end'; id: string; name: string; inputError: { raw: string; message: string }; signature?: string }

/** The result of a non-streaming call (used for cheap background work such as titles). */
export interface Completion {
  text: string
  reasoning: string
  toolCalls: ToolCallEndEvent[]
  usage: Usage
  finishReason: FinishReason
}
