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
