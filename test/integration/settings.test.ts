import { statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { IpcResult } from '@shared/errors'
import { Connection, createAppRouter } from '../../src/main/ipc'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm'
import { testServices } from '../support/services'
import { tempDir } from '../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

describe('settings over IPC', () => {
  it('stores an API key in the secret store (0600), uses it, and deletes it', async () => {
    const fake = await startFakeLlm({ turns: [{ text: 'OK' }], apiKey: 'sk-from-settings' })
    servers.push(fake)
    const dataDir = tempDir()
    const services = testServices({ dataDir, env: { ANTHROPIC_BASE_URL: fake.anthropicBaseURL } })
    const router = createAppRouter(services)
    const conn = new Connection('t', () => undefined)
    const call = async <T>(channel: string, input: unknown) => (await router.handle(conn, channel, input)) as IpcResult<T>

    const before = await call<{ id: string; keySource: string }[]>('settings.providers', {})
    expect(before.ok && before.value.find((p) => p.id === 'anthropic')?.keySource).toBe('none')
    expect(await call('settings.setApiKey', { providerId: 'anthropic', apiKey: 'sk-from-settings' })).toMatchObject({ ok: true })
    expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600)
    const after = await call<{ id: string; keySource: string }[]>('settings.providers', {})
    expect(after.ok && after.value.find((p) => p.id === 'anthropic')?.keySource).toBe('secret')
    expect(await call('settings.testConnection', { model: 'anthropic/claude-haiku-4-5' })).toMatchObject({ ok: true, value: { ok: true } })
    expect(await call('settings.deleteApiKey', { providerId: 'anthropic' })).toMatchObject({ ok: true, value: { deleted: true } })
    const failed = await call<{ ok: boolean; error?: { name: string } }>('settings.testConnection', { model: 'anthropic/claude-haiku-4-5' })
    expect(failed).toMatchObject({ ok: true, value: { ok: false, error: { name: 'ProviderAuth' } } })
    expect(await call('settings.setApiKey', { providerId: '../../etc', apiKey: 'x' })).toMatchObject({ ok: false, error: { name: 'InvalidPayload' } })
  })

  it('finds a local runtime and its models at its endpoint, and says which one is not running', async () => {
    const fake = await startFakeLlm({ models: ['qwen2.5-coder:7b', 'llama3.2'] })
    servers.push(fake)
    // Nothing listens on the port LM Studio is pointed at: a server that was closed again.
    const closed = await startFakeLlm()
    const closedURL = closed.openaiBaseURL
    await closed.close()
    const services = testServices({ dataDir: tempDir(), env: { OLLAMA_BASE_URL: fake.openaiBaseURL, LMSTUDIO_BASE_URL: closedURL } })
    const router = createAppRouter(services)
    const conn = new Connection('t', () => undefined)
    const result = (await router.handle(conn, 'settings.localModels', {})) as IpcResult<Array<{ providerId: string; running: boolean; models: string[]; problem?: string }>>
    expect(result.ok).toBe(true)
    const runtimes = result.ok ? result.value : []
    expect(runtimes.find((r) => r.providerId === 'ollama')).toMatchObject({ running: true, models: ['ollama/qwen2.5-coder:7b', 'ollama/llama3.2'] })
    expect(runtimes.find((r) => r.providerId === 'lmstudio')).toMatchObject({ running: false, models: [], problem: `not running at ${closedURL} (ECONNREFUSED)` })
  })
})
