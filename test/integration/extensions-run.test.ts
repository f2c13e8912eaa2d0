import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru as hotaru } from '../support/cli'
import { tempDir, writeTree } from '../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})


async function setup(turns: FakeTurn[]) {
  const server = await startFakeLlm({ turns })
  servers.push(server)
  return { server, env: fakeProviderEnv(server, tempDir()) }
}

describe('extensions in a session', () => {
  it('lists skills in the system prompt, loads one through the skill tool, and a PreToolUse hook blocks bash', async () => {
    const { server, env } = await setup([
      { toolCalls: [{ name: 'skill', args: { name: 'release-notes' } }] },
      { toolCalls: [{ name: 'bash', args: { command: 'touch forbidden.txt', description: 'try it' } }] },
      { text: 'Understood.' },
    ])
    const project = writeTree(tempDir(), {
      '.hotaru/skills/release-notes/SKILL.md':
        '---\nname: release-notes\ndescription: How to write release notes for this project\n---\nAlways group changes by component.\n',
      'hotaru.json': JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'echo "no shell commands today" >&2; exit 2' }] }],
        },
      }),
    })
    expect((await hotaru(['trust', '--dir', project], env)).code).toBe(0)
    const result = await hotaru(['run', '--dir', project, '--yes', 'write release notes'], env)
    expect(result.code).toBe(0)
    const first = JSON.stringify(server.requests[0]?.body)
    expect(first).toContain('release-notes')
    expect(first).toContain('How to write release notes for this project')
    expect(JSON.stringify(server.requests[1]?.body)).toContain('Always group changes by component.')
    expect(JSON.stringify(server.requests[2]?.body)).toContain('no shell commands today')
    expect(existsSync(join(project, 'forbidden.txt'))).toBe(false)
  })

  it('reads a folded YAML description, and a skill whose description is not valid YAML is used with a notice on stderr', async () => {
    const { server, env } = await setup([{ text: 'Fine.' }])
    const project = writeTree(tempDir(), {
      '.hotaru/skills/pdf/SKILL.md': '---\nname: pdf\ndescription: >-\n  Fill PDF forms\n  and merge files.\n---\nUse pdftk.\n',
      '.hotaru/skills/forms/SKILL.md': '---\nname: forms\ndescription: Use for: web forms, validation\n---\nValidate on blur.\n',
    })
    const result = await hotaru(['run', '--dir', project, 'hi'], env)
    expect(result.code).toBe(0)
    const system = JSON.stringify((server.requests[0]?.body as { system: unknown }).system)
    expect(system).toContain('Fill PDF forms and merge files.')
    expect(system).toContain('Use for: web forms, validation')
    expect(result.stderr).toContain(join('forms', 'SKILL.md'))
    expect(result.stderr).toContain('not valid YAML')
  })

  it('shows failed hooks on the turn: on the user message, the tool call and the last message, and on stderr', async () => {
    const hooks = {
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo prompt-hook-broke >&2; exit 1' }] }],
      PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'echo pre-hook-broke >&2; exit 4' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'exit 3' }] }],
    }
    const run = async (format: 'text' | 'json') => {
      const { env } = await setup([{ toolCalls: [{ name: 'bash', args: { command: 'echo ran', description: 'echo' } }] }, { text: 'Done.' }])
      const project = writeTree(tempDir(), { 'hotaru.json': JSON.stringify({ hooks }) })
      expect((await hotaru(['trust', '--dir', project], env)).code).toBe(0)
      return hotaru(['run', '--dir', project, '--yes', '--format', format, 'go'], env)
    }
    const text = await run('text')
    expect(text.code).toBe(0)
    expect(text.stderr).toContain('warning: UserPromptSubmit hook `echo prompt-hook-broke >&2; exit 1` failed: exit code 1: prompt-hook-broke')
    expect(text.stderr).toContain('warning: PreToolUse hook `echo pre-hook-broke >&2; exit 4` failed: exit code 4: pre-hook-broke')
    expect(text.stderr).toContain('warning: Stop hook `exit 3` failed: exit code 3')
    // Failures do not block: the command ran and the turn ended normally.
    expect(text.stdout).toContain('Done.')

    const json = await run('json')
    const events = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; part?: { type: string; event?: string; messageId?: string }; message?: { id: string; role: string } })
    const hookParts = events.filter((e) => e.type === 'session:part' && e.part?.type === 'hook').map((e) => e.part)
    const roleOf = new Map(events.filter((e) => e.type === 'session:message' && e.message).map((e) => [e.message?.id, e.message?.role]))
    expect(hookParts.map((p) => [p?.event, roleOf.get(p?.messageId)])).toEqual([
      ['UserPromptSubmit', 'user'],
      ['Stop', 'assistant'],
    ])
  })

  it('prints an MCP warning on stderr once', async () => {
    const { env } = await setup([{ text: 'Fine.' }])
    const project = writeTree(tempDir(), {
      'hotaru.json': JSON.stringify({ mcp: { twice: { type: 'local', command: ['hotaru-no-such-mcp-server'] } } }),
      '.mcp.json': JSON.stringify({ mcpServers: { twice: { command: 'hotaru-no-such-mcp-server' } } }),
    })
    expect((await hotaru(['trust', '--dir', project], env)).code).toBe(0)
    const result = await hotaru(['run', '--dir', project, 'hi'], env)
    expect(result.code).toBe(0)
    const line = 'warning: MCP server "twice" is defined in hotaru config and in .mcp.json; the hotaru config is used'
    expect(result.stderr.split('\n').filter((l) => l === line)).toHaveLength(1)
  })

  it('uses a custom agent file: its body is the system prompt', async () => {
    const { server, env } = await setup([{ text: 'Reviewed.' }])
    const project = writeTree(tempDir(), {
      '.hotaru/agents/reviewer.md': '---\ndescription: Reviews code strictly\nmode: primary\n---\nYou are a meticulous code reviewer named Quill.\n',
    })
    const result = await hotaru(['run', '--dir', project, '--agent', 'reviewer', 'review this'], env)
    expect(result.code).toBe(0)
    expect(JSON.stringify((server.requests[0]?.body as { system: unknown }).system)).toContain('meticulous code reviewer named Quill')
  })

  it('reports a broken custom tool file and still runs the turn', async () => {
    const { env } = await setup([{ text: 'Fine.' }])
    const project = writeTree(tempDir(), { '.hotaru/tools/broken.mjs': 'export default {' })
    expect((await hotaru(['trust', '--dir', project], env)).code).toBe(0)
    const result = await hotaru(['run', '--dir', project, 'hi'], env)
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/warning: .*broken\.mjs/)
  })
})
