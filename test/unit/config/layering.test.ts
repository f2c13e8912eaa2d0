import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { type ConfigWorld, makeWorld } from './helpers'

let world: ConfigWorld
beforeEach(() => {
  world = makeWorld()
})
afterEach(() => world.cleanup())

describe('loadConfig layering', () => {
  test('no files: empty config, no sources', async () => {
    const result = await world.load()
    expect(result).toMatchObject({ config: {}, sources: [], warnings: [], withheld: [], projectBaseURLs: [] })
  })

  test('global → walked-up project files → .hotaru → env → managed, later wins', async () => {
    const global = world.write('home/.config/hotaru/hotaru.json', { model: 'a/global', shell: 'global', maxTurns: 1 })
    const far = world.write('work/hotaru.json', { model: 'a/far', shell: 'far', smallModel: 'a/far' })
    const near = world.write('work/repo/hotaru.jsonc', { model: 'a/near', defaultAgent: 'near' })
    const dot = world.write('work/repo/app/.hotaru/hotaru.json', { model: 'a/dot', instructions: ['dot.md'] })
    world.env.HOTARU_CONFIG_CONTENT = JSON.stringify({ model: 'a/env', maxTurns: 7 })
    const managed = world.write('managed/hotaru.json', { model: 'a/managed' })

    const { config, sources } = await world.load()

    expect(sources).toEqual([
      { file: global, kind: 'global' },
      { file: far, kind: 'project' },
      { file: near, kind: 'project' },
      { file: dot, kind: 'dot-hotaru' },
      { file: 'HOTARU_CONFIG_CONTENT', kind: 'env' },
      { file: managed, kind: 'managed' },
    ])
    expect(config).toEqual({
      model: 'a/managed',
      shell: 'far',
      maxTurns: 7,
      smallModel: 'a/far',
      defaultAgent: 'near',
      instructions: ['dot.md'],
    })
  })

  test('a project file in the project dir itself is found', async () => {
    const file = world.write('work/repo/app/hotaru.json', { shell: '/bin/zsh' })
    const { config, sources } = await world.load()
    expect(config.shell).toBe('/bin/zsh')
    expect(sources).toEqual([{ file, kind: 'project' }])
  })

  test('objects deep-merge; arrays and scalars replace', async () => {
    world.write('home/.config/hotaru/hotaru.json', {
      provider: { anthropic: { apiKey: 'k1', headers: { a: '1', b: '2' }, models: { m: { contextLimit: 100 } } } },
      agent: { build: { model: 'a/x', tools: { bash: true, edit: true } } },
      snapshot: { enabled: true, exclude: ['node_modules', 'dist'] },
      instructions: ['a.md', 'b.md'],
    })
    world.write('work/repo/app/hotaru.json', {
      provider: { anthropic: { headers: { b: 'two', c: '3' }, models: { m: { outputLimit: 10 } } }, openai: { apiKey: 'k2' } },
      agent: { build: { tools: { bash: false } }, review: { mode: 'subagent' } },
      snapshot: { exclude: ['build'] },
      instructions: ['c.md'],
    })
    const { config } = await world.load()
    expect(config).toEqual({
      provider: {
        anthropic: { apiKey: 'k1', headers: { a: '1', b: 'two', c: '3' }, models: { m: { contextLimit: 100, outputLimit: 10 } } },
        openai: { apiKey: 'k2' },
      },
      agent: { build: { model: 'a/x', tools: { bash: false, edit: true } }, review: { mode: 'subagent' } },
      snapshot: { enabled: true, exclude: ['build'] },
      instructions: ['c.md'],
    })
  })

  test('permission rules of a later layer come after the earlier ones (last match wins)', async () => {
    world.write('home/.config/hotaru/hotaru.json', { permission: { bash: { '*': 'ask', 'git push*': 'deny' }, edit: 'ask' } })
    world.write('work/repo/app/hotaru.json', { permission: { bash: { 'git status*': 'allow', '*': 'allow' } } })
    const { config } = await world.load()
    expect(config.permission?.edit).toBe('ask')
    const bash = config.permission?.bash
    expect(bash).toEqual({ 'git push*': 'deny', 'git status*': 'allow', '*': 'allow' })
    expect(Object.keys(bash ?? {})).toEqual(['git push*', 'git status*', '*'])
  })

  test('a permission given as one action replaces a rule map, and the other way round', async () => {
    world.write('home/.config/hotaru/hotaru.json', { permission: { bash: { '*': 'ask' }, edit: 'deny' } })
    world.write('work/repo/app/hotaru.json', { permission: { bash: 'allow', edit: { '*.md': 'allow' } } })
    const { config } = await world.load()
    expect(config.permission).toEqual({ bash: 'allow', edit: { '*.md': 'allow' } })
  })

  test('an MCP server switching type is replaced, not merged', async () => {
    world.write('home/.config/hotaru/hotaru.json', {
      mcp: { docs: { type: 'local', command: ['npx', 'docs-server'], env: { A: '1' } }, fs: { type: 'local', command: 'fs-server' } },
    })
    world.write('work/repo/app/.hotaru/hotaru.json', {
      mcp: { docs: { type: 'remote', url: 'https://docs.example.com/mcp' }, fs: { type: 'local', command: 'fs-server', enabled: false } },
    })
    const { config } = await world.load()
    expect(config.mcp).toEqual({
      docs: { type: 'remote', url: 'https://docs.example.com/mcp' },
      fs: { type: 'local', command: 'fs-server', enabled: false },
    })
  })

  test('a layer may switch an MCP server from another layer off without repeating it', async () => {
    world.write('home/.config/hotaru/hotaru.json', { mcp: { docs: { type: 'local', command: ['docs-server'] } } })
    world.write('work/repo/app/.hotaru/hotaru.json', { mcp: { docs: { enabled: false } } })
    const { config } = await world.load()
    expect(config.mcp).toEqual({ docs: { type: 'local', command: ['docs-server'], enabled: false } })
  })

  test('managed config wins over everything, HOTARU_CONFIG_CONTENT included', async () => {
    world.write('work/repo/app/.hotaru/hotaru.json', { permission: { bash: 'allow' }, model: 'a/project' })
    world.env.HOTARU_CONFIG_CONTENT = '{"permission": {"webfetch": "allow"}, "model": "a/env"}'
    world.write('managed/hotaru.jsonc', '// set by IT\n{ "permission": { "bash": "ask", "webfetch": "deny" } }')
    const { config, sources } = await world.load()
    expect(config).toEqual({ model: 'a/env', permission: { bash: 'ask', webfetch: 'deny' } })
    expect(sources.at(-1)).toEqual({ file: join(world.managed, 'hotaru.jsonc'), kind: 'managed' })
  })

  test('HOTARU_CONFIG_CONTENT alone', async () => {
    world.env.HOTARU_CONFIG_CONTENT = '{"model": "openai/gpt-4.1", "maxTurns": 3}'
    const { config, sources } = await world.load()
    expect(config).toEqual({ model: 'openai/gpt-4.1', maxTurns: 3 })
    expect(sources).toEqual([{ file: 'HOTARU_CONFIG_CONTENT', kind: 'env' }])
  })

  test('an empty HOTARU_CONFIG_CONTENT adds no layer', async () => {
    world.env.HOTARU_CONFIG_CONTENT = '  '
    expect((await world.load()).sources).toEqual([])
  })

  test('XDG_CONFIG_HOME moves the global folder', async () => {
    world.write('home/.config/hotaru/hotaru.json', { shell: 'ignored' })
    const file = world.write('xdg/hotaru/hotaru.json', { shell: 'xdg' })
    world.env.XDG_CONFIG_HOME = join(world.root, 'xdg')
    const { config, sources } = await world.load()
    expect(config.shell).toBe('xdg')
    expect(sources).toEqual([{ file, kind: 'global' }])
  })

  test('homeDir defaults to HOME from the injected env', async () => {
    world.write('home/.config/hotaru/hotaru.json', { shell: 'from-home' })
    const { config } = await world.load({ homeDir: undefined })
    expect(config.shell).toBe('from-home')
  })

  test('hotaru.json and hotaru.jsonc in one folder: both apply, .jsonc last, with a warning', async () => {
    world.write('work/repo/app/hotaru.json', { shell: 'json', maxTurns: 2 })
    world.write('work/repo/app/hotaru.jsonc', { shell: 'jsonc' })
    const { config, warnings } = await world.load()
    expect(config).toEqual({ shell: 'jsonc', maxTurns: 2 })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('both hotaru.json and hotaru.jsonc exist')
  })

  test('a file reachable as two layers is applied once', async () => {
    // A project opened inside the global config folder.
    const file = world.write('home/.config/hotaru/hotaru.json', { shell: 'once' })
    const { sources } = await world.load({ projectDir: join(world.home, '.config', 'hotaru') })
    expect(sources).toEqual([{ file, kind: 'global' }])
  })

  test('a relative projectDir is resolved', async () => {
    world.write('work/repo/app/hotaru.json', { shell: 'rel' })
    const original = process.cwd()
    process.chdir(join(world.root, 'work'))
    try {
      expect((await world.load({ projectDir: join('repo', 'app') })).config.shell).toBe('rel')
    } finally {
      process.chdir(original)
    }
  })

  test('the merged config is typed', async () => {
    world.write('work/repo/app/hotaru.json', { agent: { build: { maxTurns: 5, mode: 'primary' } } })
    const { config } = await world.load()
    const turns: number | undefined = config.agent?.build?.maxTurns
    expect(turns).toBe(5)
  })
})
