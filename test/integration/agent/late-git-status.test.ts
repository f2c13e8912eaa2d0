import { execFileSync } from 'node:child_process'
import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { GIT_SUMMARY_PENDING } from '../../../src/main/core/agent/system-prompt'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru } from '../../support/cli'
import { tempDir, writeTree } from '../../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

/** A project with one changed file, and a `git` first on PATH whose `status` takes `seconds` (a large repository's). */
function slowGitProject(seconds: number): { project: string; path: string } {
  const project = writeTree(tempDir(), { 'a.txt': 'one\n' })
  const git = (...args: string[]) => execFileSync('git', args, { cwd: project, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  git('add', '.')
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'init')
  writeFileSync(join(project, 'a.txt'), 'two\n')
  const bin = tempDir()
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
  writeFileSync(join(bin, 'git'), `#!/bin/sh\ncase " $* " in *" status "*) sleep ${seconds};; esac\nexec ${real} "$@"\n`)
  chmodSync(join(bin, 'git'), 0o755)
  return { project, path: `${bin}:${process.env.PATH ?? ''}` }
}

async function run(turns: FakeTurn[], seconds: number): Promise<string[]> {
  const server = await startFakeLlm({ turns })
  servers.push(server)
  const { project, path } = slowGitProject(seconds)
  const result = await runHotaru(['run', '--dir', project, '--yes', 'look around'], fakeProviderEnv(server, tempDir(), { PATH: path }))
  expect(result.code, result.stderr).toBe(0)
  return server.requests.map((r) => JSON.stringify((r.body as { messages: unknown[] }).messages))
}

describe('a git status slower than the turn set-up', () => {
  it('does not hold up the first request: its summary comes with the next one', async () => {
    // git takes longer than the set-up (even on a loaded machine), and the model longer than git: the summary is
    // ready for the second request.
    const requests = await run([{ toolCalls: [{ name: 'read', args: { filePath: 'a.txt' } }], latencyMs: 2500 }, { text: 'Done.' }], 1.2)
    expect(requests).toHaveLength(2)
    const [first, second] = requests as [string, string]
    expect(first).toContain(GIT_SUMMARY_PENDING)
    expect(first).not.toContain('1 changed file(s)')
    expect(second).toContain('git repository, branch main, 1 changed file(s) (at the start of this turn)')
  })

  it('never makes a finished turn go on by itself', async () => {
    const requests = await run([{ text: 'Nothing to do.' }], 1.2)
    expect(requests).toHaveLength(1)
    expect(requests[0]).toContain(GIT_SUMMARY_PENDING)
  })

  it('is in the first request when git answers in time', async () => {
    const requests = await run([{ text: 'Nothing to do.' }], 0)
    expect(requests[0]).toContain('git repository, branch main, 1 changed file(s)')
    expect(requests[0]).not.toContain(GIT_SUMMARY_PENDING)
  })
})
