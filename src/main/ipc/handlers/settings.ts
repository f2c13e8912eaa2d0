import { readConfigValue, userConfigFile, writeConfigValue } from '../../core/config/writer'
import { toErrorData } from '@shared/errors'
import { probeLocalRuntimes, secretKeyFor } from '../../core/provider'
import type { DomainHandlers } from '../router'

export const settingsHandlers: DomainHandlers<'settings'> = {
  providers: async (_input, { services }) =>
    Promise.all(
      services.providers.presets().map(async (preset) => {
        let keySource: 'env' | 'config' | 'secret' | 'placeholder' | 'none'
        let baseURL = preset.baseURL
        try {
          const resolved = await services.providers.resolve(preset.id)
          keySource = resolved.apiKeySource
          baseURL = resolved.baseURL
        } catch (error) {
          // No key anywhere is a state to show (the user can add one); anything else is a real failure.
          if ((error as { name?: string }).name !== 'ProviderAuth') throw error
          keySource = 'none'
        }
        return {
          id: preset.id,
          name: preset.name,
          kind: preset.kind,
          baseURL,
          requiresKey: preset.requiresKey,
          keySource,
          envKeys: [...preset.env.apiKey],
        }
      }),
    ),
  setApiKey: async ({ providerId, apiKey }, { services }) => {
    await services.secrets.set(secretKeyFor(providerId), apiKey)
    return { protection: services.secretsProtection }
  },
  secretStore: (_input, { services }) => ({ protection: services.secretsProtection, encrypted: services.secretsEncrypted }),
  deleteApiKey: async ({ providerId }, { services }) => {
    const had = (await services.secrets.get(secretKeyFor(providerId))) !== undefined
    await services.secrets.delete(secretKeyFor(providerId))
    return { deleted: had }
  },
  testConnection: async ({ model }, { services }) => {
    const started = Date.now()
    try {
      await services.providers.complete({
        model,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Reply with OK.' }] }],
        maxTokens: 8,
        promptCache: false,
        signal: AbortSignal.timeout(30_000),
      })
      return { ok: true, latencyMs: Date.now() - started }
    } catch (error) {
      const data = toErrorData(error)
      return { ok: false, latencyMs: Date.now() - started, error: { name: data.name, message: data.data.message } }
    }
  },
  localModels: (_input, { services }) => probeLocalRuntimes(services.providers.presets(), (id) => services.providers.resolve(id)),
  defaults: () => userDefaults(),
  setDefaults: ({ model, defaultAgent }) => {
    const file = userConfigFile()
    if (model !== undefined) writeConfigValue(file, ['model'], model ?? undefined)
    if (defaultAgent !== undefined) writeConfigValue(file, ['defaultAgent'], defaultAgent ?? undefined)
    return userDefaults()
  },
}

function userDefaults(): { model: string | null; defaultAgent: string | null; file: string } {
  const file = userConfigFile()
  const model = readConfigValue(file, 'model')
  const defaultAgent = readConfigValue(file, 'defaultAgent')
  return { model: typeof model === 'string' ? model : null, defaultAgent: typeof defaultAgent === 'string' ? defaultAgent : null, file }
}
