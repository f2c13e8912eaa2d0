import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { migrations } from '../../src/main/core/storage/migrations'
import { Storage } from '../../src/main/core/storage'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru as hotaru } from '../support/cli'
import { tempDir, writeTree } from '../support/temp'
import type { Checkpoint } from '@shared/schema/checkpoint'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

describe('checkpoints say what happened', () => {
  it('a step keeps its tool, command and per-file line counts; `hotaru checkpoints list` prints the plain label', async () => {
    const server = await startFakeLlm({
      turns: [
        {
          toolCalls: [
            { name: 'read', args: { filePath: 'src/a.ts' } },
            { name: 'read', args: { filePath: 'b.ts' } },
          ],
        },
        {
          toolCalls: [
            // Valid TypeScript: an edit that broke the file would make the turn go on to tell the model of its errors.
            { name: 'edit', args: { filePath: 'src/a.ts', oldString: '"one"', newString: '"uno"\nexport const bis = "uno bis"' } },
            { name: 'edit', args: { filePath: 'b.ts', oldString: 'two', newString: 'dos' } },
          ],
        },
        { toolCalls: [{ name: 'bash', args: { command: 'echo built > out.txt', description: 'build' } }] },
        { text: 'Done.' },
      ],
    })
    servers.push(server)
    const env = fakeProviderEnv(server, tempDir())
    const project = writeTree(tempDir(), { 'src/a.ts': 'export const a = "one"\n', 'b.ts': 'export const b = "two"\n' })
    const run = await hotaru(['run', '--dir', project, '--yes', 'Rename the numbers\nin both files'], env)
    expect(run.code, run.stderr).toBe(0)

    const list = JSON.parse((await hotaru(['checkpoints', 'list', '--dir', project, '--json'], env)).stdout) as Checkpoint[]
    expect(list.map((c) => c.trigger)).toEqual(['message', 'step', 'step'])
    expect(list[0]?.prompt).toBe('Rename the numbers')
    expect(list[1]?.actions).toEqual([
      { tool: 'edit', subject: 'src/a.ts' },
      { tool: 'edit', subject: 'b.ts' },
    ])
    expect(list[1]?.summary.files).toEqual(
      expect.arrayContaining([
        { path: 'src/a.ts', status: 'modified', additions: 2, deletions: 1 },
        { path: 'b.ts', status: 'modified', additions: 1, deletions: 1 },
      ]),
    )
    expect(list[2]?.actions).toEqual([{ tool: 'bash', subject: 'echo built > out.txt' }])

    const text = (await hotaru(['checkpoints', 'list', '--dir', project], env)).stdout
    expect(text).toContain('Before your message “Rename the numbers”')
    expect(text).toContain('Edited 2 files +3 −2')
    expect(text).toContain('Ran `echo built > out.txt` · Created out.txt +1')
    expect(text).not.toContain('After a tool step')
  })

  it('a database from before the labels opens, keeps its checkpoints and stores labels for new ones', () => {
    const dir = tempDir()
    const file = join(dir, 'hotaru.db')
    // The schema as the previous release left it, with one checkpoint.
    const old = new Database(file)
    for (const sql of migrations.slice(0, 10)) old.exec(sql)
    old.pragma('user_version = 10')
    old.prepare("INSERT INTO projects (id, root, name, created_at, last_opened_at) VALUES ('p1', ?, 'x', 1, 1)").run(writeTree(tempDir(), {}))
    const summary = { added: 0, modified: 1, deleted: 0, additions: 1, deletions: 1, files: [{ path: 'a.txt', status: 'modified' }], untracked: [] }
    old
      .prepare("INSERT INTO checkpoints (id, project_id, session_id, message_id, snapshot_id, trigger, created_at, summary) VALUES ('cp_1', 'p1', NULL, NULL, 's1', 'step', 1, ?)")
      .run(JSON.stringify(summary))
    old.close()

    const storage = Storage.open(dir)
    try {
      const [legacy] = storage.checkpoints.list('p1')
      expect(legacy).toMatchObject({ id: 'cp_1', trigger: 'step', summary })
      expect(legacy?.actions).toBeUndefined()
      storage.checkpoints.insert({
        id: 'cp_2',
        projectId: 'p1',
        sessionId: null,
        messageId: null,
        snapshotId: 's2',
        trigger: 'step',
        createdAt: 2,
        summary: { ...summary, files: [{ path: 'a.txt', status: 'modified', additions: 1, deletions: 1 }] },
        actions: [{ tool: 'bash', subject: 'npm test' }],
      })
    } finally {
      storage.close()
    }
    const again = Storage.open(dir)
    try {
      expect(again.checkpoints.get('cp_2')).toMatchObject({ actions: [{ tool: 'bash', subject: 'npm test' }], summary: { files: [{ additions: 1, deletions: 1 }] } })
    } finally {
      again.close()
    }
  })
})
