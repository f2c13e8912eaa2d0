import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FakeTurn } from '../../fixtures/fake-llm'
import { fakeLlm } from '../../support/fake-llms'
import { fakeProviderEnv, runHotaru } from '../../support/cli'
import { gitRepo } from '../../support/git-repo'
import { tempDir } from '../../support/temp'

const bash = (command: string, background = false): FakeTurn => ({ toolCalls: [{ name: 'bash', args: { command, description: 'ports', ...(background ? { background: true } : {}) } }] })

/** A turn that records the ports its commands see: a foreground command, and a background one. */
const recordPorts: FakeTurn[] = [
  bash(`printf '%s %s' "\${HOTARU_PORT-none}" "\${HOTARU_PORTS-none}" > fg.txt`),
  bash(`printf '%s %s' "\${HOTARU_PORT-none}" "\${HOTARU_PORTS-none}" > bg.tmp && mv bg.tmp bg.txt`, true),
  bash(`timeout 20 sh -c 'until [ -f bg.txt ]; do sleep 0.1; done'`),
  { text: 'done' },
]

function worktreePath(stderr: string, name: string): string {
  const match = new RegExp(`^worktree ${name}: (.+)$`, 'm').exec(stderr)
  if (!match?.[1]) throw new Error(`no worktree line for ${name} in: ${stderr}`)
  return match[1]
}

interface Listed {
  name: string
  ports: { first: number; last: number } | null
}

describe('worktree ports through the CLI', () => {
  it('gives two worktrees made at once blocks of their own, seen by their commands, hooks and model, and lists them', { timeout: 120_000 }, async () => {
    const dataDir = tempDir()
    // Hooks record the ports they see too: one of the turn (UserPromptSubmit) and one of a tool call (PreToolUse).
    const record = (file: string) => [{ hooks: [{ type: 'command', command: `printf '%s' "\${HOTARU_PORTS-none}" > ${file}` }] }]
    const hooks = { UserPromptSubmit: record('prompt-hook.txt'), PreToolUse: record('tool-hook.txt') }
    const root = gitRepo({
      'README.md': 'hello\n',
      '.gitignore': 'fg.txt\nbg.txt\n*-hook.txt\n',
      'hotaru.json': JSON.stringify({ hooks }),
    })
    expect((await runHotaru(['trust', '--dir', root], fakeProviderEnv(await fakeLlm([]), dataDir))).code).toBe(0)
    const a = await fakeLlm(recordPorts)
    const b = await fakeLlm(recordPorts)
    const main = await fakeLlm(recordPorts)
    const [runA, runB] = await Promise.all([
      runHotaru(['run', '--dir', root, '--worktree', 'alpha', '--yes', 'ports'], fakeProviderEnv(a, dataDir)),
      runHotaru(['run', '--dir', root, '--worktree', 'beta', '--yes', 'ports'], fakeProviderEnv(b, dataDir)),
    ])
    expect(runA.code, runA.stderr).toBe(0)
    expect(runB.code, runB.stderr).toBe(0)
    const runMain = await runHotaru(['run', '--dir', root, '--yes', 'ports'], fakeProviderEnv(main, dataDir))
    expect(runMain.code, runMain.stderr).toBe(0)

    const env = fakeProviderEnv(a, dataDir)
    const listed = await runHotaru(['worktrees', 'list', '--dir', root, '--json'], env)
    expect(listed.code, listed.stderr).toBe(0)
    const byName = new Map((JSON.parse(listed.stdout) as Listed[]).map((w) => [w.name, w.ports]))
    const alpha = byName.get('alpha')
    const beta = byName.get('beta')
    if (!alpha || !beta) throw new Error(`no ports listed: ${listed.stdout}`)
    expect(alpha.last - alpha.first).toBe(9)
    expect(beta.last - beta.first).toBe(9)
    expect(alpha.first <= beta.last && beta.first <= alpha.last).toBe(false)

    for (const [name, run, ports] of [['alpha', runA, alpha], ['beta', runB, beta]] as const) {
      const dir = worktreePath(run.stderr, name)
      const seen = `${ports.first} ${ports.first}-${ports.last}`
      expect(readFileSync(join(dir, 'fg.txt'), 'utf8')).toBe(seen)
      expect(readFileSync(join(dir, 'bg.txt'), 'utf8')).toBe(seen)
      expect(readFileSync(join(dir, 'prompt-hook.txt'), 'utf8')).toBe(`${ports.first}-${ports.last}`)
      expect(readFileSync(join(dir, 'tool-hook.txt'), 'utf8')).toBe(`${ports.first}-${ports.last}`)
    }
    // The model is told which ports to use.
    expect(JSON.stringify(a.requests[0]?.body)).toContain(`This worktree's ports: ${alpha.first}-${alpha.last}`)
    expect(JSON.stringify(a.requests[0]?.body)).toContain('$HOTARU_PORT')
    // The main tree has no ports of its own.
    expect(readFileSync(join(root, 'fg.txt'), 'utf8')).toBe('none none')
    expect(readFileSync(join(root, 'bg.txt'), 'utf8')).toBe('none none')
    expect(readFileSync(join(root, 'prompt-hook.txt'), 'utf8')).toBe('none')
    expect(JSON.stringify(main.requests[0]?.body)).not.toContain("This worktree's ports")

    const text = await runHotaru(['worktrees', 'list', '--dir', root], env)
    expect(text.stdout).toMatch(/^NAME .* PORTS\s+PATH$/m)
    expect(text.stdout).toMatch(new RegExp(`^alpha\\s.*\\s${alpha.first}-${alpha.last}\\s+/`, 'm'))
  })
})
