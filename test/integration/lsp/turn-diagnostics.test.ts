import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { fakeProviderEnv } from '../../support/cli'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { descendants, isAlive } from '../../../src/main/core/process/tree'
import { TS_FIXTURE, waitFor } from './helpers'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

/** The tool result the model was sent in request `index` (default: the latest). */
function toolResult(fake: FakeLlm, index = fake.requests.length - 1): string {
  const body = fake.requests[index]?.body as { messages: Array<{ content: Array<{ type: string; content?: unknown }> | string }> }
  const last = body.messages.at(-1)?.content
  const result = Array.isArray(last) ? last.find((c) => c.type === 'tool_result') : undefined
  return typeof result?.content === 'string' ? result.content : JSON.stringify(result?.content)
}

/** The two ways TypeScript is checked: by the native compiler the app ships, or by the project's own TypeScript. */
const CHECKERS = [
  { name: 'the native TypeScript server (a project without a TypeScript of its own)', ownTypescript: false, command: /tsgo/ },
  { name: "typescript-language-server with the project's own TypeScript", ownTypescript: true, command: /typescript-language-server/ },
] as const

async function setup(ownTypescript: boolean) {
  const fake = await startFakeLlm()
  servers.push(fake)
  const root = writeTree(tempDir(), { ...TS_FIXTURE, 'hotaru.json': JSON.stringify({ permission: { edit: 'allow' } }) })
  if (ownTypescript) {
    mkdirSync(join(root, 'node_modules'))
    symlinkSync(join(import.meta.dirname, '../../../node_modules/typescript'), join(root, 'node_modules', 'typescript'))
  }
  // A busy test machine may need longer than the product's waits for a warm server and at a turn's end.
  const services = testServices({ env: fakeProviderEnv(fake, tempDir()), lsp: { waitMs: 90_000, quietMs: 500, settleMs: 90_000 } })
  // The folder's own allow rule for edits applies once the user trusts it.
  services.trust.trust(root)
  const project = services.projects.openFolder(root)
  const session = services.sessions.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-5' })
  return { fake, services, project, session, root }
}

describe.each(CHECKERS)('diagnostics after edits, through a real turn and $name', ({ ownTypescript, command }) => {
  it('tells the model of the type error an edit caused, clears it after the fix, survives a killed server and leaves no process behind', async () => {
    const { fake, services, project, session } = await setup(ownTypescript)
    fake.enqueue(
      { toolCalls: [{ name: 'read', args: { filePath: 'src/main.ts' } }] },
      { toolCalls: [{ name: 'edit', args: { filePath: 'src/main.ts', oldString: 'add(1, 2)', newString: '"three"' } }] },
      { text: 'I broke it.' },
      // Asked for only when the server was still loading the project at the edit: the turn's end tells the model then.
      { text: 'Noted: src/main.ts no longer type-checks.' },
    )
    expect((await services.agents.prompt({ sessionId: session.id, text: 'break it' })).status).toBe('completed')
    // Whether the edit's own result carried it or a reminder before the turn's end did, the model heard of the error.
    const heard = fake.requests.slice(2).map((r) => JSON.stringify(r.body))
    expect(heard.some((body) => /src\/main\.ts:2:14 error TS2322: Type 'string' is not assignable to type 'number'/.test(body))).toBe(true)
    fake.clearQueue()

    const lsp = services.lsp.for(project)
    expect((await lsp.availability()).find((s) => s.id === 'typescript')?.command).toMatch(command)
    expect(lsp.allDiagnostics()).toEqual([
      expect.objectContaining({ path: 'src/main.ts', diagnostics: expect.arrayContaining([expect.objectContaining({ code: 'TS2322', line: 2, severity: 'error' })]) }),
    ])

    // The fix clears it; between two steps of the same turn the server is killed, and the next edit's error still reaches the model.
    fake.enqueue(
      { toolCalls: [{ name: 'edit', args: { filePath: 'src/main.ts', oldString: '"three"', newString: 'add(1, 2)' } }] },
      { latencyMs: 300, toolCalls: [{ name: 'edit', args: { filePath: 'src/main.ts', oldString: 'add(1, 2)', newString: "add(1, '2')" } }] },
      { text: 'Fixed, then broke it again.' },
      // Asked for only when the restarted server reported after the edit's result was sent.
      { text: 'Noted: the argument is a string.' },
    )
    const before = fake.requests.length
    const turn = services.agents.prompt({ sessionId: session.id, text: 'fix it' })
    await waitFor(() => fake.requests.length >= before + 2)
    const fixed = toolResult(fake, before + 1)
    expect(fixed).toContain('No errors in src/main.ts.')
    const pid = lsp.statuses().find((s) => s.id === 'typescript')?.pid
    expect(pid).toBeTypeOf('number')
    process.kill(pid as number, 'SIGKILL')
    expect((await turn).status).toBe('completed')
    const afterKill = fake.requests.slice(before + 2).map((r) => JSON.stringify(r.body))
    expect(afterKill.some((body) => /src\/main\.ts:2:\d+ error TS2345: Argument of type 'string'/.test(body))).toBe(true)
    fake.clearQueue()
    const status = lsp.statuses().find((s) => s.id === 'typescript')
    expect(status).toMatchObject({ state: 'ready', restarts: 1 })
    expect(status?.pid).not.toBe(pid)

    // Closing the project ends the server and every process under it (typescript-language-server runs tsserver).
    const tree = [status?.pid as number, ...descendants(status?.pid as number)]
    if (ownTypescript) expect(tree.length).toBeGreaterThan(1)
    await services.projects.close(project.id)
    expect(tree.filter(isAlive)).toEqual([])
  }, 600_000)
})
