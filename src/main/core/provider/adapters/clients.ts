import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import type { ResolvedProvider } from '../credentials'

export interface ClientOptions {
  /** Per-attempt HTTP timeout in ms. */
  timeoutMs: number
}

/**
 * SDK clients, one per distinct endpoint + key. Both SDKs' own retries are off
 * (`maxRetries: 0`): retrying is ours, so every retry is visible as a `retry` event
 * and honours one policy. Every credential is passed explicitly (and the SDKs'
 * environment fallbacks nulled) so only `resolveProvider` decides what is sent.
 */
export class ClientCache {
  private readonly anthropic = new Map<string, Anthropic>()
  private readonly openai = new Map<string, OpenAI>()

  constructor(private readonly options: ClientOptions) {}

  private key(provider: ResolvedProvider): string {
    return JSON.stringify([provider.baseURL, provider.apiKey, provider.headers])
  }

  anthropicFor(provider: ResolvedProvider): Anthropic {
    const key = this.key(provider)
    let client = this.anthropic.get(key)
    if (!client) {
      client = new Anthropic({
        apiKey: provider.apiKey,
        authToken: null,
        baseURL: provider.baseURL,
        maxRetries: 0,
        timeout: this.options.timeoutMs,
        defaultHeaders: provider.headers,
      })
      this.anthropic.set(key, client)
    }
    return client
  }

  openaiFor(provider: ResolvedProvider): OpenAI {
    const key = this.key(provider)
    let client = this.openai.get(key)
    if (!client) {
      client = new OpenAI({
        apiKey: provider.apiKey,
        baseURL: provider.baseURL,
        organization: null,
        project: null,
        adminAPIKey: null,
        maxRetries: 0,
        timeout: this.options.timeoutMs,
        defaultHeaders: provider.headers,
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
