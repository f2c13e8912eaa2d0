import { describe, expect, it } from 'vitest'
import { type SecretStore, resolveProvider, secretKeyFor } from '../../../src/main/core/provider'

const secrets = (values: Record<string, string>): SecretStore & { asked: string[] } => {
  const asked: string[] = []
  return {
    asked,
    get: async (key) => {
      asked.push(key)
      return values[key]
    },
  }
}

describe('credential resolution', () => {
  it('prefers the environment, then config, then the secret store', async () => {
    const store = secrets({ [secretKeyFor('anthropic')]: 'from-secret' })
    const settings = { providers: { anthropic: { apiKey: 'from-config', baseURL: 'http://config.example' } } }

    const fromEnv = await resolveProvider('anthropic', {
      env: { ANTHROPIC_API_KEY: 'from-env', ANTHROPIC_BASE_URL: 'http://env.example' },
      settings,
      secrets: store,
    })
    expect(fromEnv).toMatchObject({ apiKey: 'from-env', apiKeySource: 'env', baseURL: 'http://env.example', baseURLSource: 'env' })

    const fromConfig = await resolveProvider('anthropic', { env: {}, settings, secrets: store })
    expect(fromConfig).toMatchObject({ apiKey: 'from-config', apiKeySource: 'config', baseURL: 'http://config.example' })

    const fromSecret = await resolveProvider('anthropic', { env: { ANTHROPIC_API_KEY: '  ' }, settings: {}, secrets: store })
    expect(fromSecret).toMatchObject({ apiKey: 'from-secret', apiKeySource: 'secret', baseURL: 'https://api.anthropic.com', baseURLSource: 'preset' })
    // The store is only consulted when env and config have no key.
    expect(store.asked).toEqual(['provider.anthropic.apiKey'])
  })

  it('uses OPENAI_API_KEY and OPENAI_BASE_URL for openai', async () => {
    const resolved = await resolveProvider('openai', {
      env: { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' },
      settings: {},
    })
    expect(resolved).toMatchObject({ kind: 'openai', apiKey: 'sk-env', baseURL: 'http://127.0.0.1:1/v1' })
  })

  it('knows the OpenAI-compatible presets', async () => {
    const env = { DEEPSEEK_API_KEY: 'd', MOONSHOT_API_KEY: 'm', OPENROUTER_API_KEY: 'o' }
    expect(await resolveProvider('deepseek', { env, settings: {} })).toMatchObject({
      kind: 'openai-compatible',
      baseURL: 'https://api.deepseek.com/v1',
      apiKey: 'd',
    })
    expect(await resolveProvider('moonshot', { env, settings: {} })).toMatchObject({ baseURL: 'https://api.moonshot.ai/v1' })
    expect(await resolveProvider('openrouter', { env, settings: {} })).toMatchObject({
      baseURL: 'https://openrouter.ai/api/v1',
      headers: { 'X-Title': 'Hotaru' },
    })
  })

  it('needs no key for local runtimes', async () => {
    expect(await resolveProvider('ollama', { env: {}, settings: {} })).toMatchObject({
      baseURL: 'http://127.0.0.1:11434/v1',
      apiKeySource: 'placeholder',
    })
    expect(await resolveProvider('lmstudio', { env: {}, settings: {} })).toMatchObject({ baseURL: 'http://127.0.0.1:1234/v1' })
  })

  it('merges configured headers over preset headers', async () => {
    const resolved = await resolveProvider('openrouter', {
      env: { OPENROUTER_API_KEY: 'o' },
      settings: { providers: { openrouter: { headers: { 'X-Title': 'Mine', 'X-Extra': '1' } } } },
    })
    expect(resolved.headers).toMatchObject({ 'X-Title': 'Mine', 'X-Extra': '1', 'HTTP-Referer': expect.any(String) })
  })

  it('fails with ProviderAuth naming every place it looked', async () => {
    const error = await resolveProvider('anthropic', { env: {}, settings: {} }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ProviderAuth' })
    expect((error as Error).message).toContain('$ANTHROPIC_API_KEY')
    expect((error as Error).message).toContain('provider.anthropic.apiKey')
  })

  it('accepts a custom provider defined only by config', async () => {
    const resolved = await resolveProvider('corp', {
      env: { CORP_API_KEY: 'c' },
      settings: { providers: { corp: { baseURL: 'http://llm.corp/v1' } } },
    })
    expect(resolved).toMatchObject({ kind: 'openai-compatible', baseURL: 'http://llm.corp/v1', apiKey: 'c' })
    const proxy = await resolveProvider('proxy', {
      env: {},
      settings: { providers: { proxy: { baseURL: 'http://proxy', kind: 'anthropic', apiKey: 'p' } } },
    })
    expect(proxy.kind).toBe('anthropic')
  })

  it('rejects an unknown provider without a base URL as ProviderUnknown', async () => {
    await expect(resolveProvider('nope', { env: {}, settings: {} })).rejects.toMatchObject({ name: 'ProviderUnknown' })
  })
})

describe('keys and base URLs from project config', () => {
  const secrets: SecretStore = { get: async (key) => (key === secretKeyFor('anthropic') ? 'sk-stored' : undefined) }

  it('never sends a key from the environment or the secret store to a base URL from project config', async () => {
    const settings = { providers: { anthropic: { baseURL: 'http://attacker.invalid/', baseURLFromProject: true } } }
    await expect(resolveProvider('anthropic', { env: { ANTHROPIC_API_KEY: 'sk-env' }, settings, secrets })).rejects.toMatchObject({
      name: 'ProviderAuth',
      message: expect.stringContaining('that base URL comes from the project'),
    })
  })

  it('sends the project config’s own key there, and the user’s key to a base URL the user set', async () => {
    const own = await resolveProvider('anthropic', {
      env: { ANTHROPIC_API_KEY: 'sk-env' },
      settings: { providers: { anthropic: { baseURL: 'http://proxy.invalid/', apiKey: 'sk-project', baseURLFromProject: true } } },
      secrets,
    })
    expect(own).toMatchObject({ apiKey: 'sk-project', apiKeySource: 'config', baseURL: 'http://proxy.invalid/' })
    const users = await resolveProvider('anthropic', {
      env: { ANTHROPIC_API_KEY: 'sk-env' },
      settings: { providers: { anthropic: { baseURL: 'https://my-gateway.invalid/' } } },
      secrets,
    })
    expect(users).toMatchObject({ apiKey: 'sk-env', baseURL: 'https://my-gateway.invalid/' })
    const viaEnvBase = await resolveProvider('anthropic', {
      env: { ANTHROPIC_API_KEY: 'sk-env', ANTHROPIC_BASE_URL: 'https://env-gateway.invalid/' },
      settings: { providers: { anthropic: { baseURL: 'http://attacker.invalid/', baseURLFromProject: true } } },
      secrets,
    })
    expect(viaEnvBase).toMatchObject({ apiKey: 'sk-env', baseURL: 'https://env-gateway.invalid/' })
  })
})
