import { execFileSync } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru as hotaru } from '../../support/cli'
import { tempDir, writeTree } from '../../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

interface Body {
  system?: unknown
  tools?: unknown
  messages: Array<{ role: string; content: unknown }>
}

/** The request as the cache sees it: breakpoints move from turn to turn, the bytes they mark must not. */
function withoutBreakpoints(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'cache_control' ? undefined : v)))
}

function textOf(message: { content: unknown } | undefined): string {
  return JSON.stringify(message?.content ?? '')
}

async function setup(turns: FakeTurn[]) {
  const server = await startFakeLlm({ turns })
  servers.push(server)
  return { server, env: fakeProviderEnv(server, tempDir()) }
}

describe('a prompt that caches across turns', () => {
  it('keeps system prompt and tools byte-identical across turns and sends what changed in the turn message', async () => {
    const { server, env } = await setup([
      { toolCalls: [{ name: 'write', args: { filePath: 'notes.txt', content: 'one\n' } }] },
      { text: 'Wrote it.' },
      { text: 'Still here.' },
    ])
    const project = writeTree(tempDir(), {
      'AGENTS.md': 'Always answer in haiku.\n',
      'readme.txt': 'hello\n',
    })
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project })
    execFileSync('git', ['add', '.'], { cwd: project })
    execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'init'], { cwd: project })
    expect((await hotaru(['trust', '--dir', project], env)).code).toBe(0)

    const first = await hotaru(['run', '--dir', project, '--yes', 'write notes'], env)
    expect(first.code, first.stderr).toBe(0)
    // The instructions change between the turns.
    appendFileSync(join(project, 'AGENTS.md'), 'Never use emoji.\n')
    const second = await hotaru(['run', '--dir', project, '--continue', 'and now?'], env)
    expect(second.code, second.stderr).toBe(0)

    const bodies = server.requests.map((r) => r.body as Body)
    expect(bodies).toHaveLength(3)
    const [one, two, three] = bodies as [Body, Body, Body]
    // The cached prefix: byte-identical on every request of the session.
    expect(JSON.stringify(two.system)).toBe(JSON.stringify(one.system))
    expect(JSON.stringify(three.system)).toBe(JSON.stringify(one.system))
    expect(JSON.stringify(three.tools)).toBe(JSON.stringify(one.tools))
    // The system prompt holds nothing that changes per turn.
    const system = JSON.stringify(one.system)
    expect(system).not.toContain('haiku')
    expect(system).not.toMatch(/\d{4}-\d{2}-\d{2}/)
    expect(system).not.toContain('changed file')
    // Turn 1's message brings the date, the git status and the instructions, before the user's words.
    const firstMessage = textOf(one.messages[0])
    expect(firstMessage).toContain('Always answer in haiku.')
    expect(firstMessage).toContain(new Date().toISOString().slice(0, 10))
    expect(firstMessage).toContain('branch main, clean')
    expect(firstMessage.indexOf('haiku')).toBeLessThan(firstMessage.indexOf('write notes'))
    // Turn 2 re-sends the whole history unchanged, so the provider reads it from its cache…
    expect(withoutBreakpoints(three.messages.slice(0, two.messages.length))).toEqual(withoutBreakpoints(two.messages))
    // …and its own message carries only what changed: the instructions and the git status, not the date.
    const secondMessage = textOf(three.messages.at(-1))
    expect(secondMessage).toContain('Never use emoji.')
    expect(secondMessage).toMatch(/changed file/)
    expect(secondMessage).not.toContain("Today's date")
    expect(secondMessage).toContain('and now?')
  })
})
