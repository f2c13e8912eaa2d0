import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { ConfigInvalid } from '../../../src/main/core/config'
import { lineColumn } from '../../../src/main/core/config/jsonc'
import { type ConfigWorld, makeWorld, rejectionOf } from './helpers'

let world: ConfigWorld
beforeEach(() => {
  world = makeWorld()
})
afterEach(() => world.cleanup())

describe('JSONC files', () => {
  test('comments and trailing commas are accepted', async () => {
    world.write(
      'work/repo/app/hotaru.jsonc',
      `{
  // line comment
  "model": "anthropic/claude-sonnet-4-5", /* block */
  "permission": {
    "bash": { "git status*": "allow", "*": "ask", },
  },
  "instructions": ["AGENTS.md",],
}
`,
    )
    const { config } = await world.load()
    expect(config).toEqual({
      model: 'anthropic/claude-sonnet-4-5',
      permission: { bash: { 'git status*': 'allow', '*': 'ask' } },
      instructions: ['AGENTS.md'],
    })
  })

  test('comments are accepted in hotaru.json too', async () => {
    world.write('work/repo/app/hotaru.json', '{ /* why */ "shell": "bash" }')
    expect((await world.load()).config).toEqual({ shell: 'bash' })
  })

  test('an empty or comment-only file is an empty config', async () => {
    world.write('work/repo/hotaru.json', '')
    world.write('work/repo/app/hotaru.jsonc', '// nothing yet\n')
    const { config, sources } = await world.load()
    expect(config).toEqual({})
    expect(sources).toHaveLength(2)
  })

  test('a byte-order mark is ignored', async () => {
    world.write('work/repo/app/hotaru.json', '\uFEFF{"shell": "pwsh"}')
    expect((await world.load()).config).toEqual({ shell: 'pwsh' })
  })

  test('a syntax error names the file, line and column', async () => {
    const file = world.write('work/repo/app/hotaru.jsonc', '{\n  "model": "a/b"\n  "shell": "sh"\n}\n')
    const error = await rejectionOf(world.load())
    expect(error.name).toBe(ConfigInvalid)
    expect(error.message).toBe(`${file}:3:3: syntax error: expected ","`)
    expect(error.data).toMatchObject({ file, path: '', line: 3, column: 3 })
    expect(error.data.issues).toEqual([{ path: '', message: 'syntax error at 3:3: expected ","' }])
  })

  test('an unterminated document reports every error, the first in the message', async () => {
    const file = world.write('home/.config/hotaru/hotaru.json', '{\n  "model": "a/b",\n  "agent": {\n')
    const error = await rejectionOf(world.load())
    expect(error.message).toMatch(/^~\/\.config\/hotaru\/hotaru\.json:\d+:\d+: syntax error: /)
    expect(error.data.file).toBe(file)
    expect((error.data.issues as unknown[]).length).toBeGreaterThanOrEqual(1)
  })

  test('a syntax error in HOTARU_CONFIG_CONTENT names it', async () => {
    world.env.HOTARU_CONFIG_CONTENT = '{"model": }'
    const error = await rejectionOf(world.load())
    expect(error.name).toBe(ConfigInvalid)
    expect(error.message).toBe('HOTARU_CONFIG_CONTENT:1:11: syntax error: expected a value')
    expect(error.data.file).toBe('HOTARU_CONFIG_CONTENT')
  })

  test('a "__proto__" key is refused, not turned into a prototype', async () => {
    const file = world.write('work/repo/app/hotaru.json', '{"agent": {"__proto__": {"model": "a/b"}}}')
    const error = await rejectionOf(world.load())
    expect(error.name).toBe(ConfigInvalid)
    expect(error.message).toBe(`${file}: agent.__proto__: reserved key "__proto__" is not allowed`)
  })

  test('a duplicate key is a warning naming its position; the last one wins', async () => {
    world.write('work/repo/app/hotaru.json', '{\n  "shell": "a",\n  "shell": "b"\n}')
    const { config, warnings } = await world.load()
    expect(config.shell).toBe('b')
    expect(warnings).toEqual([`${join(world.project, 'hotaru.json')}:3:3: shell: duplicate key; the last one is used`])
  })
})

describe('lineColumn', () => {
  test.each([
    ['abc', 0, 1, 1],
    ['abc', 2, 1, 3],
    ['a\nbc', 2, 2, 1],
    ['a\nbc\n', 5, 3, 1],
    ['a\r\nb', 3, 2, 1],
  ])('%j at %i → %i:%i', (text, offset, line, column) => {
    expect(lineColumn(text, offset)).toEqual({ line, column })
  })
})
