import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { answerPermissions } from '../../src/cli/permission-prompt'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

type Engine = ReturnType<ReturnType<typeof testServices>['checkpoints']['engine']>

async function turn(
  turns: FakeTurn[],
  files: Record<string, string>,
  options: { holdSnapshotsUntilFirstRequest?: boolean; onEngine?: (engine: Engine) => void } = {},
) {
  let firstRequest = (): void => undefined
  const requested = new Promise<void>((resolve) => {
    firstRequest = resolve
  })
  const fake = await startFakeLlm({ turns, onRequest: () => firstRequest() })
  servers.push(fake)
  const home = tempDir()
  const services = testServices({
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.anthropicBaseURL },
  })
  const project = services.projects.openFolder(writeTree(tempDir(), files))
  const session = services.sessions.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-6' })
  const held = { requestsSeen: -1 }
  options.onEngine?.(services.checkpoints.engine(project))
  if (options.holdSnapshotsUntilFirstRequest) {
    // The engine answers only once the model has been asked: the request must not wait for it.
    const engine = services.checkpoints.engine(project)
    const snapshot = engine.snapshot
    Object.defineProperty(engine, 'snapshot', {
      value: async (...args: Parameters<typeof snapshot>) => {
        await requested
        // Long enough for the first response's write to run if nothing held it back.
        await new Promise((resolve) => setTimeout(resolve, 500))
        if (held.requestsSeen < 0) held.requestsSeen = fake.requests.length
        return snapshot(...args)
      },
    })
  }
  const stop = answerPermissions(services, { sessionId: session.id, mode: 'yes', format: 'json' })
  const result = await services.agents.prompt({ sessionId: session.id, text: 'go' })
  stop()
  return { services, project, result, held }
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
    // The write waited for the message checkpoint: that checkpoint does not have the new file.
    const sinceMessage = await services.checkpoints.diff(checkpoints[0]?.id ?? '')
    expect(sinceMessage.map((d) => `${d.status} ${d.path}`).sort()).toEqual(['added new.txt', 'modified a.txt'])
    // Each step checkpoint holds exactly what its tool wrote.
    expect(checkpoints[1]?.summary.files).toEqual([{ path: 'new.txt', status: 'added' }])
    expect(checkpoints[2]?.summary.files).toEqual([{ path: 'a.txt', status: 'modified' }])
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
    expect(checkpoints[1]?.summary.files).toEqual([
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
