import type OpenAI from 'openai'
import type { ResolvedProvider } from '../credentials'
import { httpFetch } from '../http-fetch'
import type { AnthropicClient } from './anthropic-client'

type AnthropicKit = typeof import('./anthropic-kit')
type OpenAIKit = typeof import('./openai-kit')

export interface ClientOptions {
  /** Per-attempt HTTP timeout in ms. */
  timeoutMs: number
}

/**
 * SDK clients, one per distinct endpoint + key, sending over `httpFetch`. Both SDKs' own retries are off
 * (`maxRetries: 0`): retrying is ours, so every retry is visible as a `retry` event
 * and honours one policy. Every credential is passed explicitly (and the SDKs'
 * environment fallbacks nulled) so only `resolveProvider` decides what is sent.
 *
 * Each SDK is imported on first use: a run against one provider never loads the other's
 * module graph (the Anthropic SDK alone pulls in dozens of files), and commands that make no
 * request load neither.
 */
export class ClientCache {
  private readonly anthropic = new Map<string, AnthropicClient>()
  private readonly openai = new Map<string, OpenAI>()
  private anthropicKit: Promise<AnthropicKit> | null = null
  private openaiKit: Promise<OpenAIKit> | null = null

  constructor(private readonly options: ClientOptions) {}

  /** The Anthropic SDK and the adapter functions built on it. */
  anthropicSdk(): Promise<AnthropicKit> {
    this.anthropicKit ??= import('./anthropic-kit')
    return this.anthropicKit
  }

  /** The OpenAI SDK and the adapter functions built on it. */
  openaiSdk(): Promise<OpenAIKit> {
    this.openaiKit ??= import('./openai-kit')
    return this.openaiKit
  }

  private key(provider: ResolvedProvider): string {
    return JSON.stringify([provider.baseURL, provider.apiKey, provider.headers])
  }

  anthropicFor(kit: AnthropicKit, provider: ResolvedProvider): AnthropicClient {
    const key = this.key(provider)
    let client = this.anthropic.get(key)
    if (!client) {
      client = new kit.AnthropicClient({
        apiKey: provider.apiKey,
        authToken: null,
        baseURL: provider.baseURL,
        maxRetries: 0,
        timeout: this.options.timeoutMs,
        defaultHeaders: provider.headers,
        fetch: httpFetch,
      })
      this.anthropic.set(key, client)
    }
    return client
  }

  openaiFor(kit: OpenAIKit, provider: ResolvedProvider): OpenAI {
    const key = this.key(provider)
    let client = this.openai.get(key)
    if (!client) {
      client = new kit.OpenAI({
        apiKey: provider.apiKey,
        baseURL: provider.baseURL,
        organization: null,
        project: null,
        adminAPIKey: null,
        maxRetries: 0,
        timeout: this.options.timeoutMs,
        defaultHeaders: provider.headers,
        fetch: httpFetch,
      })
      this.openai.set(key, client)
    }
    return client
  }

  clear(): void {
    this.anthropic.clear()
    this.openai.clear()
  }
}
