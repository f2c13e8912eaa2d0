import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SnapshotEngine } from '../../src/main/core/snapshot'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru as hotaru } from '../support/cli'
import { tempDir } from '../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

/** More files than one check of the stop flag covers, so the walk has hashed some and not others when it stops. */
const BULK = 5_000

function bigProject(): string {
  const root = tempDir()
  for (let d = 0; d < 100; d++) mkdirSync(join(root, 'pages', `p${d}`), { recursive: true })
  for (let i = 0; i < BULK; i++) writeFileSync(join(root, 'pages', `p${i % 100}`, `page${i}.md`), `# Page ${i}\n`)
  writeFileSync(join(root, 'app.txt'), 'version v1\n')
  return root
}

interface Cp {
  id: string
  trigger: string
  scope?: string[]
  summary: { added: number; modified: number; files: { path: string }[] }
}

describe('a one-shot run whose message walk is still running at its end', () => {
  it('exits without the whole walk, its edits restore through the CLI, and the next snapshot hashes only what the walk had not', { timeout: 90_000 }, async () => {
    const server = await startFakeLlm({
      turns: [
        { toolCalls: [{ name: 'read', args: { filePath: 'app.txt' } }] },
        { toolCalls: [{ name: 'edit', args: { filePath: 'app.txt', oldString: 'v1', newString: 'v2' } }] },
        { toolCalls: [{ name: 'write', args: { filePath: 'new.txt', content: 'created\n' } }] },
        { text: 'Done.' },
      ],
    })
    servers.push(server)
    const dataDir = tempDir()
    // The walk holds still at its first check until the turn's end stops it, however fast this machine hashes.
    const env = fakeProviderEnv(server, dataDir, { HOTARU_CONFIG_CONTENT: JSON.stringify({ lsp: false }), HOTARU_WALK_STALL_MS: '60000' })
    const project = bigProject()

    const run = await hotaru(['run', '--dir', project, '--yes', 'bump the version'], env)
    expect(run.stderr).not.toMatch(/failed/i)
    expect(run.code).toBe(0)
    expect(readFileSync(join(project, 'app.txt'), 'utf8')).toBe('version v2\n')

    // The message's checkpoint holds what the tools wrote, as it was before; the steps' what they left.
    const checkpoints = JSON.parse((await hotaru(['checkpoints', 'list', '--dir', project, '--json'], env)).stdout) as Cp[]
    expect(checkpoints.map((c) => c.trigger)).toEqual(['message', 'step', 'step'])
    const [message, edited, written] = checkpoints as [Cp, Cp, Cp]
    expect(message.scope).toEqual(['app.txt', 'new.txt'])
    expect(edited.summary).toMatchObject({ modified: 1, added: 0, files: [{ path: 'app.txt' }] })
    expect(written.summary).toMatchObject({ modified: 0, added: 1, files: [{ path: 'new.txt' }] })
    expect((await hotaru(['checkpoints', 'list', '--dir', project], env)).stdout).toContain('holds only 2 written files')

    // What the walk stored and recorded is kept: the next snapshot of the store hashes only the rest.
    const [storeName] = readdirSync(join(dataDir, 'snapshots'))
    const next = new SnapshotEngine({ root: project, storeDir: join(dataDir, 'snapshots', storeName ?? '') })
    const whole = next.snapshot()
    const total = BULK + 2
    expect(next.manifest(whole.id).size).toBe(total)
    expect(whole.stats.filesHashed).toBeGreaterThan(0)
    expect(whole.stats.filesHashed).toBeLessThan(total)
    await next.dispose()

    // The diff against the working tree names exactly the files the turn wrote.
    const diff = JSON.parse((await hotaru(['checkpoints', 'diff', message.id, '--dir', project, '--json'], env)).stdout) as { path: string; status: string }[]
    expect(diff.map((d) => `${d.status} ${d.path}`).sort()).toEqual(['added new.txt', 'modified app.txt'])

    const restored = await hotaru(['checkpoints', 'restore', message.id, '--dir', project, '--yes'], env)
    expect(restored.code).toBe(0)
    expect(restored.stdout).toContain('Restored: 1 written, 1 deleted')
    expect(readFileSync(join(project, 'app.txt'), 'utf8')).toBe('version v1\n')
    expect(existsSync(join(project, 'new.txt'))).toBe(false)
    expect(readFileSync(join(project, 'pages', 'p7', 'page7.md'), 'utf8')).toBe('# Page 7\n')

    // The restore is undoable like any other.
    const undoId = /restore (cp_\S+) --yes/.exec(restored.stdout)?.[1] ?? ''
    expect((await hotaru(['checkpoints', 'restore', undoId, '--dir', project, '--yes'], env)).code).toBe(0)
    expect(readFileSync(join(project, 'app.txt'), 'utf8')).toBe('version v2\n')
    expect(readFileSync(join(project, 'new.txt'), 'utf8')).toBe('created\n')
  })
})
