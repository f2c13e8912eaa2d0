import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { answerPermissions } from '../../src/cli/permission-prompt'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'

const servers: FakeLlm[] = []

/** A summary's file without its line counts: which files a checkpoint names is what these tests check. */
const pathAndStatus = ({ path, status }: { path: string; status: string }) => ({ path, status })
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

type Engine = ReturnType<ReturnType<typeof testServices>['checkpoints']['engine']>

async function turn(
  turns: FakeTurn[],
  files: Record<string, string>,
  options: {
    holdSnapshotsUntilFirstRequest?: boolean
    /** Held snapshots wait for this many model requests (at most 30 s, so a loaded machine still gets there) instead of the first and 500 ms. */
    holdUntilRequests?: number
    onEngine?: (engine: Engine) => void
    /** Called when a held snapshot is about to walk the tree (the tree as its walk will see it). */
    onWalk?: (root: string) => void
  } = {},
) {
  let firstRequest = (): void => undefined
  const requested = new Promise<void>((resolve) => {
    firstRequest = resolve
  })
  let requests = 0
  let enoughRequests = (): void => undefined
  const enough = new Promise<void>((resolve) => {
    enoughRequests = resolve
    setTimeout(resolve, 30_000).unref()
  })
  const fake = await startFakeLlm({
    turns,
    onRequest: () => {
      firstRequest()
      if (++requests >= (options.holdUntilRequests ?? 1)) enoughRequests()
    },
  })
  servers.push(fake)
  const home = tempDir()
  const services = testServices({
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.anthropicBaseURL },
  })
  const root = writeTree(tempDir(), files)
  const project = services.projects.openFolder(root)
  const session = services.sessions.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-6' })
  const held = { requestsSeen: -1 }
  options.onEngine?.(services.checkpoints.engine(project))
  if (options.holdSnapshotsUntilFirstRequest) {
    // The engine answers only once the model has been asked: the request must not wait for it.
    const engine = services.checkpoints.engine(project)
    const snapshot = engine.snapshot
    Object.defineProperty(engine, 'snapshot', {
      value: async (...args: Parameters<typeof snapshot>) => {
        if (options.holdUntilRequests) await enough
        else {
          await requested
          // Long enough for the first response's write to run if nothing held it back.
          await new Promise((resolve) => setTimeout(resolve, 500))
        }
        if (held.requestsSeen < 0) held.requestsSeen = fake.requests.length
        options.onWalk?.(root)
        return snapshot(...args)
      },
    })
  }
  const stop = answerPermissions(services, { sessionId: session.id, mode: 'yes', format: 'json' })
  const result = await services.agents.prompt({ sessionId: session.id, text: 'go' })
  stop()
  return { services, project, root, result, held }
}

describe('checkpoints of a turn', () => {
  it('sends the first request while the message checkpoint is taken; a file-changing tool waits for it; read-only steps cost no checkpoint', async () => {
    const { services, project, result, held } = await turn(
      [
        { toolCalls: [{ name: 'write', args: { filePath: 'new.txt', content: 'hello\n' } }] },
        { toolCalls: [{ name: 'read', args: { filePath: 'a.txt' } }] },
        { toolCalls: [{ name: 'edit', args: { filePath: 'a.txt', oldString: 'one', newString: 'two' } }] },
        { text: 'Done.' },
      ],
      { 'a.txt': 'one\n', 'keep.txt': 'same\n' },
      { holdSnapshotsUntilFirstRequest: true },
    )
    expect(result.status).toBe('completed')
    // The first request went out while the message checkpoint was still being taken.
    expect(held.requestsSeen).toBeGreaterThanOrEqual(1)
    const checkpoints = services.checkpoints.list(project.id)
    expect(checkpoints.map((c) => c.trigger)).toEqual(['message', 'step', 'step'])
    // The write did not wait, yet the message checkpoint does not have the new file.
    const sinceMessage = await services.checkpoints.diff(checkpoints[0]?.id ?? '')
    expect(sinceMessage.map((d) => `${d.status} ${d.path}`).sort()).toEqual(['added new.txt', 'modified a.txt'])
    // Each step checkpoint holds exactly what its tool wrote.
    expect(checkpoints[1]?.summary.files.map(pathAndStatus)).toEqual([{ path: 'new.txt', status: 'added' }])
    expect(checkpoints[2]?.summary.files.map(pathAndStatus)).toEqual([{ path: 'a.txt', status: 'modified' }])
  })

  it('lets an edit run while the first snapshot is taken; that checkpoint still restores the tree as it was before the edit', async () => {
    const seen: string[] = []
    const original = { 'a.txt': 'one\n', 'keep.txt': 'same\n', 'deep/er/b.txt': 'bee\n' }
    const { services, project, root, result } = await turn(
      [
        { toolCalls: [{ name: 'read', args: { filePath: 'a.txt' } }] },
        { toolCalls: [{ name: 'edit', args: { filePath: 'a.txt', oldString: 'one', newString: 'two' } }] },
        { toolCalls: [{ name: 'write', args: { filePath: 'deep/new.txt', content: 'hello\n' } }] },
        { text: 'Done.' },
      ],
      original,
      {
        holdSnapshotsUntilFirstRequest: true,
        // The message checkpoint's walk starts only once the edit's result went back to the model.
        holdUntilRequests: 3,
        onWalk: (dir) => {
          if (seen.length === 0) seen.push(readFileSync(join(dir, 'a.txt'), 'utf8'))
        },
      },
    )
    expect(result.status).toBe('completed')
    // The edit had run before the message checkpoint's walk started.
    expect(seen).toEqual(['two\n'])
    const checkpoints = services.checkpoints.list(project.id)
    expect(checkpoints.map((c) => c.trigger)).toEqual(['message', 'step', 'step'])
    expect(checkpoints[1]?.summary.files.map(pathAndStatus)).toEqual([{ path: 'a.txt', status: 'modified' }])
    expect(checkpoints[2]?.summary.files.map(pathAndStatus)).toEqual([{ path: 'deep/new.txt', status: 'added' }])
    await services.checkpoints.restore(checkpoints[0]?.id ?? '', { mode: 'code' })
    const files = (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((d) => d.isFile())
      .map((d) => relative(root, join(d.parentPath, d.name)))
      .sort()
    expect(Object.fromEntries(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]))).toEqual(original)
  })

  it('holds a shell command that may write until the first snapshot is taken', async () => {
    const seen: boolean[] = []
    const { services, project, result } = await turn(
      [{ toolCalls: [{ name: 'bash', args: { command: 'echo x > made.txt', description: 'shell' } }] }, { text: 'Done.' }],
      { 'a.txt': 'one\n' },
      { holdSnapshotsUntilFirstRequest: true, onWalk: (dir) => seen.push(existsSync(join(dir, 'made.txt'))) },
    )
    expect(result.status).toBe('completed')
    expect(seen[0]).toBe(false)
    const checkpoints = services.checkpoints.list(project.id)
    expect(checkpoints[1]?.summary.files.map(pathAndStatus)).toEqual([{ path: 'made.txt', status: 'added' }])
  })

  it('runs a shell line that provably writes nothing without waiting for the first snapshot', async () => {
    const { result, held } = await turn(
      [{ toolCalls: [{ name: 'bash', args: { command: 'cat a.txt | wc -l', description: 'shell' } }] }, { text: 'Done.' }],
      { 'a.txt': 'one\n' },
      { holdSnapshotsUntilFirstRequest: true, holdUntilRequests: 2 },
    )
    expect(result.status).toBe('completed')
    // The command's result had gone back to the model before the walk began.
    expect(held.requestsSeen).toBe(2)
  })

  it('catches what a shell command changed anywhere in the tree', async () => {
    const { services, project } = await turn(
      [
        { toolCalls: [{ name: 'bash', args: { command: 'mkdir -p deep/er && echo x > deep/er/made.txt && rm gone.txt', description: 'shell' } }] },
        { text: 'Done.' },
      ],
      { 'a.txt': 'one\n', 'gone.txt': 'bye\n' },
    )
    const checkpoints = services.checkpoints.list(project.id)
    expect(checkpoints.map((c) => c.trigger)).toEqual(['message', 'step'])
    expect(checkpoints[1]?.summary.files.map(pathAndStatus)).toEqual([
      { path: 'deep/er/made.txt', status: 'added' },
      { path: 'gone.txt', status: 'deleted' },
    ])
  })

  it('takes no snapshot after a shell step that provably writes nothing, and one after a step that may', async () => {
    const snapshotsAfter = async (command: string): Promise<number> => {
      let calls = 0
      const { result } = await turn([{ toolCalls: [{ name: 'bash', args: { command, description: 'shell' } }] }, { text: 'Done.' }], { 'a.txt': 'one\n' }, {
        onEngine: (engine) => {
          const snapshot = engine.snapshot
          Object.defineProperty(engine, 'snapshot', {
            value: (...args: Parameters<typeof snapshot>) => {
              calls++
              return snapshot(...args)
            },
          })
        },
      })
      expect(result.status).toBe('completed')
      return calls
    }
    // The message checkpoint only: no walk of the tree after `ls`/`cat`.
    expect(await snapshotsAfter('ls && wc -l a.txt | cat > /dev/null')).toBe(1)
    expect(await snapshotsAfter('ls > listing.txt')).toBe(2)
  })
})
