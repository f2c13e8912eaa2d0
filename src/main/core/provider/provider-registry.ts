import { ClientCache } from './adapters/clients'
import { type ModelInfo, modelInfo } from './catalog'
import { type Env, type ResolvedProvider, providerDefinition, resolveProvider } from './credentials'
import type { FailureContext } from './error-mapping'
import { abortedError } from './errors'
import { parseModelId } from './model-id'
import { PROVIDER_PRESETS, type ProviderKind, type ProviderPreset } from './presets'
import { type RetryOptions, callWithRetry, defaultRetryOptions, streamWithRetry } from './retry'
import type { ProviderSettings, SecretStore } from './settings'
import { anthropicHeaders, toAnthropicParams } from './transform/anthropic-request'
import { toOpenAIParams } from './transform/openai-request'
import { toResponsesParams } from './transform/responses-request'
import type { ChatRequest, Completion, StreamEvent } from './types'
import { providerError, ProviderErrorNames } from './errors'
import { nextTask } from '../util/next-task'

export interface ProviderRegistryOptions {
  /** Defaults to `process.env`; tests pass their own. */
  env?: Env
  /** Settings for requests that bring none (the app's own checks); a project's come with each request. */
  settings?: ProviderSettings
  secrets?: SecretStore
  retry?: Partial<RetryOptions>
  /** Time to the response headers per attempt; defaults to 10 minutes. */
  timeoutMs?: number
  /**
   * A streaming attempt that receives nothing for this long is aborted and retried
   * as an interrupted stream; defaults to 5 minutes (long silent thinking is legitimate).
   */
  idleTimeoutMs?: number
}

type RetryEvent = Extract<StreamEvent, { type: 'retry' }>

/**
 * The provider layer's entry point: resolves `provider/model` to a catalog entry and
 * credentials, transforms the neutral request for that provider and streams the
 * normalized events, retrying transient failures.
 */
/** A model that sends nothing for this long is taken as stalled: the attempt is retried (and shown as a retry). */
export const DEFAULT_STALL_TIMEOUT_MS = 60_000

export class ProviderRegistry {
  private readonly env: Env
  private readonly settings: ProviderSettings
  private readonly secrets: SecretStore | undefined
  private readonly retry: RetryOptions
  private readonly clients: ClientCache
  private readonly idleMs: number

  constructor(options: ProviderRegistryOptions = {}) {
    this.env = options.env ?? process.env
    this.settings = options.settings ?? {}
    this.secrets = options.secrets
    this.retry = { ...defaultRetryOptions, ...options.retry }
    this.clients = new ClientCache({ timeoutMs: options.timeoutMs ?? 600_000 })
    this.idleMs = options.idleTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS
  }

  /** The config's `stallTimeoutMs`, else the registry's own (tests use a short one). */
  private stallMs(settings: ProviderSettings = this.settings): number {
    return settings.stallTimeoutMs ?? this.idleMs
  }

  /**
   * Catalog facts for `provider/model`; unknown models get defaults (`known: false`).
   * `settings`: the project's `config.provider`, as passed with its requests.
   */
  model(id: string, settings: ProviderSettings = this.settings): ModelInfo {
    return modelInfo(parseModelId(id), settings)
  }

  /** The wire protocol a provider speaks: its preset's, or a configured provider's `kind` (OpenAI-compatible by default). */
  kind(providerId: string, settings: ProviderSettings = this.settings): ProviderKind {
    return PROVIDER_PRESETS[providerId]?.kind ?? settings.providers?.[providerId]?.kind ?? 'openai-compatible'
  }

  /** The built-in providers (custom ones come from settings). */
  presets(): ProviderPreset[] {
    return Object.values(PROVIDER_PRESETS)
  }

  /**
   * The server-side web search a model's API offers, if any: the Messages API's
   * `web_search` tool. Chat Completions endpoints have none. An unknown provider has none.
   */
  webSearchApi(id: string, settings: ProviderSettings = this.settings): 'anthropic' | 'openai-responses' | undefined {
    const model = this.model(id, settings)
    if (model.capabilities.webSearch === false) return undefined
    if (!PROVIDER_PRESETS[model.providerId] && !settings.providers?.[model.providerId]?.baseURL) return undefined
    const kind = providerDefinition(model.providerId, settings).kind
    if (kind === 'anthropic') return 'anthropic'
    // OpenAI's own Responses API has `web_search`; compatible servers speaking it may not.
    return kind === 'openai' && model.api === 'responses' ? 'openai-responses' : undefined
  }

  /** Credentials and endpoint for a provider; throws `ProviderAuth` when a needed key is missing. */
  resolve(providerId: string, settings: ProviderSettings = this.settings): Promise<ResolvedProvider> {
    return resolveProvider(providerId, { env: this.env, settings, secrets: this.secrets })
  }

  /**
   * Starts loading the SDK a request to `modelId` will use, so its module graph loads while the
   * turn is still being set up (config, extensions, `git status`) instead of after. A built-in
   * provider only: a custom one's kind is known from the project's settings, at the request. Load
   * errors surface at the request itself, which awaits the same import.
   */
  prepare(modelId: string): void {
    // The request awaits this same import and reports its failure; nothing to report twice.
    this.loadSdk(modelId)?.catch(() => undefined)
  }

  /** Like `prepare`, settled once the SDK is loaded (hosts with a UI load it at start, see `warmUp`). */
  async warm(modelId: string): Promise<void> {
    await this.loadSdk(modelId)
  }

  private loadSdk(modelId: string): Promise<unknown> | undefined {
    // A malformed id is reported by the request, with its own error.
    const kind = PROVIDER_PRESETS[modelId.slice(0, Math.max(0, modelId.indexOf('/')))]?.kind
    if (kind === undefined) return undefined
    return kind === 'anthropic' ? this.clients.anthropicSdk() : this.clients.openaiSdk()
  }

  /** The model, failure context and resolved endpoint of a request; an already-aborted request goes no further. */
  private async target(request: ChatRequest): Promise<{ model: ModelInfo; ctx: FailureContext; provider: ResolvedProvider }> {
    const model = this.model(request.model, request.settings)
    const ctx: FailureContext = { providerId: model.providerId, model: model.modelId }
    if (request.signal?.aborted) throw abortedError(ctx.providerId, ctx.model)
    return { model, ctx, provider: await this.resolve(model.providerId, request.settings) }
  }

  /** Streams one model turn; see `StreamEvent` for the event contract. */
  async *stream(request: ChatRequest): AsyncGenerator<StreamEvent, void, undefined> {
    const { signal } = request
    const { model, ctx, provider } = await this.target(request)
    if (provider.kind === 'anthropic') {
      const kit = await this.clients.anthropicSdk()
      const client = this.clients.anthropicFor(kit, provider)
      const params = toAnthropicParams(request, model)
      const headers = anthropicHeaders(request, model)
      // The SDK client and the request body are one task, sending the request the next.
      await nextTask()
      yield* streamWithRetry(
        (s) => kit.streamAnthropic(client, params, s, ctx, this.stallMs(request.settings), headers),
        this.retry,
        signal,
        ctx,
      )
      return
    }
    if (request.serverTools?.length && model.api !== 'responses') {
      throw providerError(ProviderErrorNames.ProviderBadRequest, {
        message: `${model.id} has no server-side web search (Chat Completions offers none)`,
        providerId: model.providerId,
        retryable: false,
      })
    }
    const kit = await this.clients.openaiSdk()
    const client = this.clients.openaiFor(kit, provider)
    const idleMs = this.stallMs(request.settings)
    if (model.api === 'responses') {
      const params = toResponsesParams(request, model, provider)
      await nextTask()
      yield* streamWithRetry((s) => kit.streamResponses(client, params, s, ctx, idleMs), this.retry, signal, ctx)
      return
    }
    const params = toOpenAIParams(request, model, provider)
    await nextTask()
    yield* streamWithRetry((s) => kit.streamOpenAI(client, params, s, ctx, idleMs), this.retry, signal, ctx)
  }

  /** One non-streamed turn (titles, summaries). Retries like `stream`; `onRetry` reports them. */
  async complete(request: ChatRequest, onRetry?: (event: RetryEvent) => void): Promise<Completion> {
    const { signal } = request
    const { model, ctx, provider } = await this.target(request)
    if (provider.kind === 'anthropic') {
      const kit = await this.clients.anthropicSdk()
      const client = this.clients.anthropicFor(kit, provider)
      const params = toAnthropicParams(request, model)
      const headers = anthropicHeaders(request, model)
      return callWithRetry((s) => kit.completeAnthropic(client, params, s, ctx, headers), this.retry, signal, ctx, onRetry)
    }
    const kit = await this.clients.openaiSdk()
    const client = this.clients.openaiFor(kit, provider)
    if (model.api === 'responses') {
      const params = toResponsesParams(request, model, provider)
      return callWithRetry((s) => kit.completeResponses(client, params, s, ctx), this.retry, signal, ctx, onRetry)
    }
    const params = toOpenAIParams(request, model, provider)
    return callWithRetry((s) => kit.completeOpenAI(client, params, s, ctx), this.retry, signal, ctx, onRetry)
  }
}
