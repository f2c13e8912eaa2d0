import { readFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { IpcResult } from '@shared/errors'
import { Connection, createAppRouter } from '../../src/main/ipc'
import { testServices } from '../support/services'
import { tempDir } from '../support/temp'

const saved = { ...process.env }
let configHome = ''
beforeEach(() => {
  configHome = tempDir()
  // The user's config file is found through the process environment, as the app does.
  process.env.XDG_CONFIG_HOME = configHome
  process.env.HOME = tempDir()
})
afterEach(() => {
  process.env.XDG_CONFIG_HOME = saved.XDG_CONFIG_HOME
  process.env.HOME = saved.HOME
  if (saved.XDG_CONFIG_HOME === undefined) delete process.env.XDG_CONFIG_HOME
})

describe('default model and agent in the user config', () => {
  it('writes them to the user config file, comments kept, and reads them back', async () => {
    const file = join(configHome, 'hotaru', 'hotaru.jsonc')
    mkdirSync(join(configHome, 'hotaru'), { recursive: true })
    writeFileSync(file, '{\n  // keep me\n  "maxTurns": 30\n}\n')
    const router = createAppRouter(testServices())
    const conn = new Connection('t', () => undefined)
    const call = async <T>(channel: string, input: unknown) => (await router.handle(conn, channel, input)) as IpcResult<T>
    expect(await call('settings.defaults', {})).toEqual({ ok: true, value: { model: null, defaultAgent: null, file } })
    expect(await call('settings.setDefaults', { model: 'openai/gpt-4.1', defaultAgent: 'plan' })).toEqual({
      ok: true,
      value: { model: 'openai/gpt-4.1', defaultAgent: 'plan', file },
    })
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('// keep me')
    expect(text).toContain('"model": "openai/gpt-4.1"')
    expect(await call('settings.setDefaults', { model: null })).toMatchObject({ ok: true, value: { model: null, defaultAgent: 'plan' } })
    expect(await call('settings.setDefaults', { model: 'no-slash' })).toMatchObject({ ok: false, error: { name: 'InvalidPayload' } })
  })
})
