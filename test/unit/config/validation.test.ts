import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { ConfigInvalid, ConfigSchema } from '../../../src/main/core/config'
import { toConfigIssues } from '../../../src/main/core/config/zod-issues'
import { type ConfigWorld, makeWorld, rejectionOf } from './helpers'

let world: ConfigWorld
beforeEach(() => {
  world = makeWorld()
})
afterEach(() => world.cleanup())

describe('invalid config names the file and the JSON path', () => {
  test('wrong type, in the global file shown under ~', async () => {
    const file = world.write('home/.config/hotaru/hotaru.json', { agent: { build: { maxTurns: 'ten' } } })
    const error = await rejectionOf(world.load())
    expect(error.name).toBe(ConfigInvalid)
    expect(error.message).toBe('~/.config/hotaru/hotaru.json: agent.build.maxTurns: expected number, got string')
    expect(error.data).toEqual({
      message: error.message,
      file,
      path: 'agent.build.maxTurns',
      issues: [{ path: 'agent.build.maxTurns', message: 'expected number, got string' }],
    })
  })

  test.each<[string, object, string, string]>([
    ['unknown top-level key', { modle: 'a/b' }, 'modle', 'unknown key "modle"'],
    ['unknown nested key', { agent: { build: { maxturns: 3 } } }, 'agent.build.maxturns', 'unknown key "maxturns"'],
    ['unknown provider key', { provider: { openai: { baseUrl: 'https://x' } } }, 'provider.openai.baseUrl', 'unknown key "baseUrl"'],
    ['bad enum', { agent: { plan: { mode: 'main' } } }, 'agent.plan.mode', 'expected "primary" | "subagent", got string "main"'],
    ['bad permission action', { permission: { bash: 'alow' } }, 'permission.bash', 'expected "allow" | "ask" | "deny", got string "alow"'],
    [
      'bad action in a pattern map',
      { permission: { bash: { 'git status*': 'allow', 'rm *': 'never' } } },
      'permission.bash["rm *"]',
      'expected "allow" | "ask" | "deny", got string "never"',
    ],
    ['permission of the wrong kind', { permission: { edit: 1 } }, 'permission.edit', 'expected "allow" | "ask" | "deny" or object, got number'],
    ['custom tool permission', { permission: { mytool: 'maybe' } }, 'permission.mytool', 'expected "allow" | "ask" | "deny", got string "maybe"'],
    ['model without provider', { model: 'gpt-4.1' }, 'model', 'expected "provider/model", e.g. "anthropic/claude-sonnet-4-5"'],
    ['non-integer', { maxTurns: 2.5 }, 'maxTurns', 'expected integer, got number'],
    ['non-positive', { snapshot: { quotaBytes: 0 } }, 'snapshot.quotaBytes', 'must be greater than 0, got number 0'],
    ['unknown MCP type', { mcp: { s: { type: 'stdio', command: 'x' } } }, 'mcp.s.type', 'expected "local" | "remote", got string "stdio"'],
    ['MCP without type', { mcp: { s: { command: 'x' } } }, 'mcp.s.type', 'is required (expected "local" | "remote")'],
    ['MCP remote without url', { mcp: { s: { type: 'remote' } } }, 'mcp.s.url', 'is required (expected string)'],
    ['MCP local key on remote', { mcp: { s: { type: 'remote', url: 'https://x.dev', command: 'x' } } }, 'mcp.s.command', 'unknown key "command"'],
    ['MCP bad url', { mcp: { s: { type: 'remote', url: 'file:///etc/passwd' } } }, 'mcp.s.url', 'expected an http(s) URL'],
    ['empty MCP command', { mcp: { s: { type: 'local', command: [] } } }, 'mcp.s.command', 'must not be empty'],
    ['array element', { instructions: ['a.md', 3] }, 'instructions[1]', 'expected string, got number'],
    ['tools flag', { agent: { x: { tools: { bash: 'no' } } } }, 'agent.x.tools.bash', 'expected boolean, got string'],
    ['unknown hook event', { hooks: { PreTool: [] } }, 'hooks.PreTool', 'unknown key "PreTool"'],
    ['not an object', [], '', 'expected object, got array'],
  ])('%s', async (_name, content, path, message) => {
    const file = world.write('work/repo/app/hotaru.json', content)
    const error = await rejectionOf(world.load())
    expect(error.name).toBe(ConfigInvalid)
    expect(error.data.file).toBe(file)
    expect(error.data.path).toBe(path)
    expect(error.message).toBe(path ? `${file}: ${path}: ${message}` : `${file}: ${message}`)
  })

  test('every issue is listed in data.issues', async () => {
    world.write('work/repo/app/hotaru.json', { shell: 1, maxTurns: 'x', extra: true })
    const error = await rejectionOf(world.load())
    expect(error.data.issues).toEqual(
      expect.arrayContaining([
        { path: 'shell', message: 'expected string, got number' },
        { path: 'maxTurns', message: 'expected number, got string' },
        { path: 'extra', message: 'unknown key "extra"' },
      ]),
    )
  })

  test('the layer at fault is named even when a later layer is valid', async () => {
    world.write('work/repo/app/hotaru.json', { shell: 'ok' })
    const dot = world.write('work/repo/app/.hotaru/hotaru.json', { snapshot: { enabled: 'yes' } })
    world.write('managed/hotaru.json', { shell: 'managed' })
    const error = await rejectionOf(world.load())
    expect(error.message).toBe(`${dot}: snapshot.enabled: expected boolean, got string`)
  })

  test('HOTARU_CONFIG_CONTENT errors name HOTARU_CONFIG_CONTENT', async () => {
    world.env.HOTARU_CONFIG_CONTENT = '{"agent": {"build": {"maxTurns": "5"}}}'
    const error = await rejectionOf(world.load())
    expect(error.message).toBe('HOTARU_CONFIG_CONTENT: agent.build.maxTurns: expected number, got string')
    expect(error.data.file).toBe('HOTARU_CONFIG_CONTENT')
  })

  test('managed config errors name the managed file', async () => {
    const file = world.write('managed/hotaru.json', { compaction: { auto: 'sometimes' } })
    const error = await rejectionOf(world.load())
    expect(error.message).toBe(`${file}: compaction.auto: expected boolean, got string`)
  })

  test('a toggle of an MCP server no layer defines fails the merged validation, naming the layers', async () => {
    world.write('home/.config/hotaru/hotaru.json', { shell: 'sh' })
    world.env.HOTARU_CONFIG_CONTENT = '{"mcp": {"ghost": {"enabled": true}}}'
    const error = await rejectionOf(world.load())
    expect(error.name).toBe(ConfigInvalid)
    expect(error.message).toBe(
      'merged config (~/.config/hotaru/hotaru.json, HOTARU_CONFIG_CONTENT): mcp.ghost.type: is required (expected "local" | "remote")',
    )
    expect(error.data).toMatchObject({ file: 'merged config', path: 'mcp.ghost.type' })
  })

  test('an MCP entry without "type" may only hold "enabled"', async () => {
    const file = world.write('work/repo/app/hotaru.json', { mcp: { docs: { enabled: false, timeoutMs: 5 } } })
    const error = await rejectionOf(world.load())
    expect(error.message).toBe(`${file}: mcp.docs.timeoutMs: unknown key "timeoutMs"`)
  })

  test('an unreadable config path is an error, not a silently missing layer', async () => {
    // A folder where the file should be: reading it fails with EISDIR.
    const file = world.write('work/repo/app/hotaru.json/placeholder', 'x').replace(/\/placeholder$/, '')
    const error = await rejectionOf(world.load())
    expect(error.name).toBe(ConfigInvalid)
    expect(error.message).toBe(`${file}: cannot read the file (EISDIR)`)
  })
})

describe('ConfigSchema', () => {
  test('accepts a full config', () => {
    const config = {
      $schema: 'https://hotaru.dev/config.json',
      model: 'anthropic/claude-sonnet-4-5',
      smallModel: 'openrouter/anthropic/claude-haiku',
      provider: {
        anthropic: { apiKey: 'k', baseURL: 'http://127.0.0.1:8080', headers: { 'x-a': '1' }, models: { m: { contextLimit: 200000, outputLimit: 8192 } } },
      },
      agent: {
        build: { model: 'openai/gpt-4.1', prompt: 'p', description: 'd', tools: { bash: true }, permission: { bash: 'ask' }, mode: 'primary', maxTurns: 50 },
        explore: { mode: 'subagent', permission: { edit: 'deny', bash: { '*': 'deny', 'ls*': 'allow' } } },
      },
      defaultAgent: 'build',
      permission: {
        bash: { 'git status*': 'allow', '*': 'ask' },
        edit: 'ask',
        read: { '*': 'allow', '*.env': 'ask', '*.env.example': 'allow' },
        webfetch: 'allow',
        external_directory: 'ask',
        doom_loop: 'ask',
        github__create_issue: 'ask',
      },
      mcp: {
        fs: { type: 'local', command: ['npx', '-y', 'fs-server'], args: ['--root', '.'], env: { A: 'b' }, cwd: '.', enabled: true, timeoutMs: 5000 },
        one: { type: 'local', command: 'uvx' },
        web: { type: 'remote', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' }, enabled: false, timeoutMs: 1000 },
      },
      hooks: { PreToolUse: [{ matcher: 'edit|write', hooks: [{ type: 'command', command: './check.sh', timeout: 60 }] }], Stop: [{ hooks: [] }] },
      instructions: ['AGENTS.md', 'docs/*.md'],
      snapshot: { enabled: true, maxFileBytes: 1048576, exclude: ['*.log'], quotaBytes: 1073741824 },
      compaction: { auto: true, prune: false },
      shell: '/bin/zsh',
      maxTurns: 100,
    }
    expect(ConfigSchema.parse(config)).toEqual(config)
  })
})

describe('issues our config schemas do not raise yet still read as short messages', () => {
  test('a number off its step names the step and the value', () => {
    const result = z.object({ port: z.number().multipleOf(10) }).safeParse({ port: 8085 }, { reportInput: true })
    expect(result.success).toBe(false)
    expect(toConfigIssues(result.error?.issues ?? [])).toEqual([{ path: 'port', message: 'must be a multiple of 10, got number 8085' }])
  })
})
