import { ProviderErrorNames, providerError } from './errors'
import { PROVIDER_PRESETS, type ProviderPreset } from './presets'
import { type ProviderSettings, type SecretStore, secretKeyFor } from './settings'

export type Env = Readonly<Record<string, string | undefined>>

export interface ResolvedProvider extends ProviderPreset {
  apiKey: string
  /** Where the key came from; `placeholder` for local servers that take none. */
  apiKeySource: 'env' | 'config' | 'secret' | 'placeholder'
  baseURLSource: 'env' | 'config' | 'preset'
  headers: Readonly<Record<string, string>>
}

export interface CredentialSources {
  env: Env
  settings: ProviderSettings
  secrets?: SecretStore
}

// Local servers ignore the key, but both SDKs refuse to build a client without one.
const PLACEHOLDER_KEY = 'hotaru-local'

/**
 * The provider's definition: its preset, or — for an id only the config knows — an
 * OpenAI-compatible (or configured `kind`) endpoint at the configured base URL.
 */
export function providerDefinition(providerId: string, settings: ProviderSettings): ProviderPreset {
  const preset = PROVIDER_PRESETS[providerId]
  if (preset) return preset
  const entry = settings.providers?.[providerId]
  if (!entry?.baseURL) {
    throw providerError(ProviderErrorNames.ProviderUnknown, {
      message: `Unknown provider "${providerId}": use one of ${Object.keys(PROVIDER_PRESETS).join(', ')}, or configure provider.${providerId}.baseURL`,
      providerId,
      retryable: false,
    })
  }
  const envName = providerId.toUpperCase().replace(/[^A-Z0-9]/g, '_')
  return {
    id: providerId,
    name: providerId,
    kind: entry.kind ?? 'openai-compatible',
    baseURL: entry.baseURL,
    env: { apiKey: [`${envName}_API_KEY`], baseURL: [] },
    requiresKey: entry.kind === 'anthropic' || entry.kind === 'openai',
    reasoning: { field: 'reasoning_content', sendBack: 'never' },
  }
}

function firstEnv(env: Env, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim()
    if (value) return value
  }
  return undefined
}

/**
 * Credentials for one provider: the standard environment variables first, then the
 * config, then the secret store (only consulted when neither has a key). A provider
 * that needs a key and has none fails with `ProviderAuth` naming every place looked at.
 */
export async function resolveProvider(providerId: string, sources: CredentialSources): Promise<ResolvedProvider> {
  const definition = providerDefinition(providerId, sources.settings)
  const entry = sources.settings.providers?.[providerId]
  const headers = { ...definition.headers, ...entry?.headers }

  const envBase = firstEnv(sources.env, definition.env.baseURL)
  const baseURL = envBase ?? entry?.baseURL ?? definition.baseURL
  const baseURLSource = envBase ? 'env' : entry?.baseURL ? 'config' : 'preset'

  // The user's own keys (environment, secret store) only go to the provider's official
  // endpoint or a base URL the user chose; a base URL from the project's config gets only
  // a key from that same config.
  const userKeysAllowed = baseURLSource !== 'config' || entry?.baseURLFromProject !== true
  const envKey = userKeysAllowed ? firstEnv(sources.env, definition.env.apiKey) : undefined
  if (envKey) return { ...definition, baseURL, baseURLSource, headers, apiKey: envKey, apiKeySource: 'env' }
  const configKey = entry?.apiKey?.trim()
  if (configKey) return { ...definition, baseURL, baseURLSource, headers, apiKey: configKey, apiKeySource: 'config' }
  const secret = userKeysAllowed ? (await sources.secrets?.get(secretKeyFor(providerId)))?.trim() : undefined
  if (secret) return { ...definition, baseURL, baseURLSource, headers, apiKey: secret, apiKeySource: 'secret' }
  if (!definition.requiresKey) {
    return { ...definition, baseURL, baseURLSource, headers, apiKey: PLACEHOLDER_KEY, apiKeySource: 'placeholder' }
  }
  if (!userKeysAllowed) {
    throw providerError(ProviderErrorNames.ProviderAuth, {
      message:
        `No API key for ${definition.name} at ${baseURL}: that base URL comes from the project's config, and your own keys ` +
        `(${definition.env.apiKey.map((name) => `$${name}`).join(', ') || 'environment'}, the secret store) are only sent to ` +
        `the provider's official endpoint or a base URL from your user config or the environment. ` +
        `Set provider.${providerId}.apiKey in the project config, or move baseURL to your user config.`,
      providerId,
      retryable: false,
    })
  }
  const places = [
    ...definition.env.apiKey.map((name) => `$${name}`),
    `provider.${providerId}.apiKey in config`,
    `the secret store (${secretKeyFor(providerId)})`,
  ]
  throw providerError(ProviderErrorNames.ProviderAuth, {
    message: `No API key for ${definition.name}: set ${places.join(', or ')}`,
    providerId,
    retryable: false,
  })
}
