import type { ModelApi } from './catalog-data'
import type { ProviderKind } from './presets'

/**
 * Provider settings as the config layer hands them over (`config.provider`, keyed by
 * provider id). Structurally compatible with the config schema's `ProviderConfig`.
 */
export interface ProviderSettingsEntry {
  apiKey?: string
  baseURL?: string
  headers?: Record<string, string>
  /** Wire format of a provider that has no preset; defaults to `openai-compatible`. */
  kind?: ProviderKind
  /**
   * The OpenAI wire API for every model of this provider: `responses` (`/responses`) or `chat`
   * (`/chat/completions`); unset, the catalog decides per model. Ignored by Anthropic providers.
   */
  api?: ModelApi
  /**
   * The base URL was set by the project's own config (not the user's): keys from the
   * environment or the secret store are not sent there, only an `apiKey` of the config.
   */
  baseURLFromProject?: boolean
  /** Per-model overrides of the catalog limits. */
  models?: Record<string, { contextLimit?: number; outputLimit?: number }>
}

export interface ProviderSettings {
  providers?: Record<string, ProviderSettingsEntry>
  /** `stallTimeoutMs` of the config: silence after which an attempt is retried. */
  stallTimeoutMs?: number
}

/** The app's secret store (safeStorage in the desktop app, a 0600 file or env elsewhere). */
export interface SecretStore {
  get(key: string): Promise<string | undefined>
}

/** The secret-store key holding a provider's API key. */
export function secretKeyFor(providerId: string): string {
  return `provider.${providerId}.apiKey`
}
