import { existsSync, readFileSync, writeFileSync } from 'node:fs'
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

interface Cp {
  id: string
  trigger: string
  messageId: string
  summary: { modified: number; added: number; files: { path: string }[] }
}

describe('checkpoints through the CLI', () => {
  it('records the timeline of a turn, diffs it, and restores with a preview that keeps user files; the restore is undoable', async () => {
    const { env } = await setup([
      { toolCalls: [{ name: 'read', args: { filePath: 'app.txt' } }] },
      { toolCalls: [{ name: 'edit', args: { filePath: 'app.txt', oldString: 'v1', newString: 'v2' } }] },
      { toolCalls: [{ name: 'bash', args: { command: 'echo generated > gen.txt', description: 'generate' } }] },
      { text: 'Done.' },
    ])
    const project = writeTree(tempDir(), { 'app.txt': 'version v1\n', 'keep.txt': 'unchanged\n' })
    expect((await hotaru(['run', '--dir', project, '--yes', 'bump the version'], env)).code).toBe(0)
    expect(readFileSync(join(project, 'app.txt'), 'utf8')).toBe('version v2\n')

    const listed = await hotaru(['checkpoints', 'list', '--dir', project, '--json'], env)
    const checkpoints = JSON.parse(listed.stdout) as Cp[]
    expect(checkpoints.map((c) => c.trigger)).toEqual(['message', 'step', 'step'])
    expect(checkpoints[1]?.summary).toMatchObject({ modified: 1, files: [{ path: 'app.txt' }] })
    expect(checkpoints[2]?.summary).toMatchObject({ added: 1, files: [{ path: 'gen.txt' }] })
    const before = checkpoints[0] as Cp

    const text = await hotaru(['checkpoints', 'list', '--dir', project], env)
    expect(text.stdout).toContain(before.id)

    const diff = JSON.parse((await hotaru(['checkpoints', 'diff', before.id, '--dir', project, '--json'], env)).stdout) as { path: string; status: string }[]
    expect(diff.map((d) => `${d.status} ${d.path}`).sort()).toEqual(['added gen.txt', 'modified app.txt'])

    // The user adds a file of their own after the agent's work.
    writeFileSync(join(project, 'mine.txt'), 'my notes\n')
    const dry = await hotaru(['checkpoints', 'restore', before.id, '--dir', project, '--dry-run'], env)
    expect(dry.code).toBe(0)
    expect(dry.stdout).toMatch(/write\s+app\.txt/)
    expect(dry.stdout).toMatch(/delete gen\.txt/)
    expect(dry.stdout).toMatch(/your file mine\.txt: kept/)
    expect(readFileSync(join(project, 'app.txt'), 'utf8')).toBe('version v2\n')

    const refused = await hotaru(['checkpoints', 'restore', before.id, '--dir', project], env)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('--yes')
    expect(existsSync(join(project, 'gen.txt'))).toBe(true)

    const applied = await hotaru(['checkpoints', 'restore', before.id, '--dir', project, '--yes'], env)
    expect(applied.code).toBe(0)
    expect(readFileSync(join(project, 'app.txt'), 'utf8')).toBe('version v1\n')
    expect(existsSync(join(project, 'gen.txt'))).toBe(false)
    expect(readFileSync(join(project, 'mine.txt'), 'utf8')).toBe('my notes\n')
    const undoId = /restore (cp_\S+) --yes/.exec(applied.stdout)?.[1]
    expect(undoId).toBeDefined()

    const undone = await hotaru(['checkpoints', 'restore', undoId ?? '', '--dir', project, '--yes'], env)
    expect(undone.code).toBe(0)
    expect(readFileSync(join(project, 'app.txt'), 'utf8')).toBe('version v2\n')
    expect(readFileSync(join(project, 'gen.txt'), 'utf8')).toBe('generated\n')
  })

  it('a conversation restore truncates the session from that message on', async () => {
    const { env } = await setup([{ text: 'One.' }, { text: 'Two.' }])
    const project = tempDir()
    await hotaru(['run', '--dir', project, 'first'], env)
    await hotaru(['run', '--dir', project, '--continue', 'second'], env)
    const checkpoints = JSON.parse((await hotaru(['checkpoints', 'list', '--dir', project, '--json'], env)).stdout) as Cp[]
    expect(checkpoints).toHaveLength(2)
    const result = await hotaru(['checkpoints', 'restore', checkpoints[1]?.id ?? '', '--dir', project, '--mode', 'conversation', '--yes', '--json'], env)
    expect(JSON.parse(result.stdout)).toMatchObject({ messagesRemoved: 2 })
    const sessions = JSON.parse((await hotaru(['sessions', 'list', '--dir', project, '--json'], env)).stdout) as { id: string }[]
    const exported = JSON.parse((await hotaru(['sessions', 'export', sessions[0]?.id ?? ''], env)).stdout) as { messages: unknown[] }
    expect(exported.messages).toHaveLength(2)
  })

  it('names unknown checkpoints and bad modes', async () => {
    const { env } = await setup([])
    const project = tempDir()
    const missing = await hotaru(['checkpoints', 'restore', 'cp_nope', '--dir', project, '--yes'], env)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('no checkpoint "cp_nope"')
    const mode = await hotaru(['checkpoints', 'restore', 'cp_x', '--mode', 'files'], env)
    expect(mode.stderr).toContain('--mode must be code, conversation or both')
  })
})
