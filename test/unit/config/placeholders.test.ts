import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { ConfigInvalid } from '../../../src/main/core/config'
import { type ConfigWorld, makeWorld, rejectionOf } from './helpers'

let world: ConfigWorld
beforeEach(() => {
  world = makeWorld()
})
afterEach(() => world.cleanup())

describe('{env:VAR} placeholders', () => {
  test('resolve in any string value, nested and in arrays, several per string', async () => {
    world.env.KEY = 'sk-123'
    world.env.HOST = 'example.com'
    world.env.PORT = '8443'
    world.write('work/repo/app/hotaru.json', {
      provider: { anthropic: { apiKey: '{env:KEY}', baseURL: 'https://{env:HOST}:{env:PORT}/v1' } },
      mcp: { local: { type: 'local', command: ['server', '--token={env:KEY}'], env: { TOKEN: '{env:KEY}' } } },
    })
    const { config, warnings } = await world.load()
    expect(config.provider?.anthropic).toEqual({ apiKey: 'sk-123', baseURL: 'https://example.com:8443/v1' })
    expect(config.mcp?.local).toEqual({ type: 'local', command: ['server', '--token=sk-123'], env: { TOKEN: 'sk-123' } })
    expect(warnings).toEqual([])
  })

  test('a missing variable becomes "" with a warning naming file and path', async () => {
    const file = world.write('work/repo/app/hotaru.json', { provider: { openai: { apiKey: '{env:NOPE_NOT_SET}' } } })
    const { config, warnings } = await world.load()
    expect(config.provider?.openai?.apiKey).toBe('')
    expect(warnings).toEqual([`${file}: provider.openai.apiKey: environment variable NOPE_NOT_SET is not set; using an empty string`])
  })

  test('placeholders resolve before validation, so they can fill typed fields', async () => {
    world.env.MODEL = 'openai/gpt-4.1'
    world.env.HOTARU_CONFIG_CONTENT = '{"model": "{env:MODEL}"}'
    expect((await world.load()).config.model).toBe('openai/gpt-4.1')
  })

  test('a placeholder inside a comment is never resolved', async () => {
    world.write('work/repo/app/hotaru.jsonc', '{\n  // "shell": "{env:UNSET_IN_COMMENT}" and {file:missing.txt}\n  "shell": "sh"\n}')
    const { config, warnings } = await world.load()
    expect(config).toEqual({ shell: 'sh' })
    expect(warnings).toEqual([])
  })

  test('keys are left alone', async () => {
    world.write('work/repo/app/hotaru.json', { permission: { bash: { 'echo {env:X}': 'allow' } } })
    const { config } = await world.load()
    expect(config.permission?.bash).toEqual({ 'echo {env:X}': 'allow' })
  })
})

describe('{file:path} placeholders', () => {
  test('resolve relative to the config file, trimmed', async () => {
    world.write('work/repo/secrets/key.txt', '  sk-from-file\n')
    world.write('work/repo/hotaru.json', { provider: { anthropic: { apiKey: '{file:secrets/key.txt}' } } })
    expect((await world.load()).config.provider?.anthropic?.apiKey).toBe('sk-from-file')
  })

  test('~/ starts at the home folder; absolute paths are used as is', async () => {
    world.write('home/prompt.md', 'You review code.\n')
    const abs = world.write('abs/prompt.md', 'Absolute.')
    world.write('home/.config/hotaru/hotaru.json', {
      agent: { review: { prompt: '{file:~/prompt.md}' }, other: { prompt: `{file:${abs}}` } },
    })
    const { config } = await world.load()
    expect(config.agent?.review?.prompt).toBe('You review code.')
    expect(config.agent?.other?.prompt).toBe('Absolute.')
  })

  test('in HOTARU_CONFIG_CONTENT they start at the project dir', async () => {
    world.write('work/repo/app/shell.txt', '/bin/fish')
    world.env.HOTARU_CONFIG_CONTENT = '{"shell": "{file:shell.txt}"}'
    expect((await world.load()).config.shell).toBe('/bin/fish')
  })

  test('a missing file is a ConfigInvalid naming the config file and the path', async () => {
    const file = world.write('work/repo/app/.hotaru/hotaru.json', { agent: { a: { prompt: '{file:nope.md}' } } })
    const error = await rejectionOf(world.load())
    expect(error.name).toBe(ConfigInvalid)
    expect(error.message).toMatch(new RegExp(`^${escape(file)}: agent\\.a\\.prompt: cannot read \\{file:nope\\.md\\} \\(.*nope\\.md\\): ENOENT$`))
    expect(error.data).toMatchObject({ file, path: 'agent.a.prompt' })
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
