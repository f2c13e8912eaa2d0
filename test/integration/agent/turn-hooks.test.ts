import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { answerPermissions } from '../../../src/cli/permission-prompt'
import { TURN_HOOK_ORDER } from '../../../src/main/core/agent/turn-features'
import type { TurnHookCall, TurnHookPoint } from '../../../src/main/core/agent/turn-hooks'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../../fixtures/fake-llm'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

/** Real services over a real database, a real project folder, and the model served by the fake LLM over HTTP. */
async function setup(turns: FakeTurn[], config: Record<string, unknown> = {}) {
  const fake = await startFakeLlm({ turns })
  servers.push(fake)
  const home = tempDir()
  const services = testServices({
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
      HOTARU_CONFIG_CONTENT: JSON.stringify(config),
    },
    lsp: { startWithProject: false },
  })
  const root = writeTree(tempDir(), { 'notes.txt': 'notes\n' })
  services.trust.trust(root)
  const project = services.projects.openFolder(root)
  const session = services.sessions.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-6' })
  const calls: TurnHookCall[] = []
  services.agents.hooks.onCall((call) => calls.push(call))
  const prompt = async (text: string) => {
    const stop = answerPermissions(services, { sessionId: session.id, mode: 'yes', format: 'json' })
    try {
      return await services.agents.prompt({ sessionId: session.id, text })
    } finally {
      stop()
    }
  }
  return { fake, services, root, project, session, calls, prompt }
}

const command = (line: string) => [{ hooks: [{ type: 'command', command: line }] }]

describe('the turn hooks', () => {
  it('run the features in the documented order at each point of a real turn', async () => {
    const { services, root, project, session, calls, prompt } = await setup(
      [{ toolCalls: [{ name: 'write', args: { filePath: 'new.txt', content: 'hello\n' } }] }, { text: 'Done.' }, { text: 'Greeting file' }],
      {
        smallModel: 'anthropic/claude-haiku-4-5',
        hooks: { UserPromptSubmit: command('echo submit >> hooks.log'), PostToolUse: command('echo post >> hooks.log'), Stop: command('echo stop >> hooks.log') },
      },
    )
    for (const point of Object.keys(TURN_HOOK_ORDER) as TurnHookPoint[]) expect(services.agents.hooks.names(point)).toEqual(TURN_HOOK_ORDER[point])

    const result = await prompt('write a greeting')
    expect(result.status).toBe('completed')
    const at = (point: TurnHookPoint, ...hooks: string[]) => hooks.map((hook) => ({ point, hook }))
    expect(calls).toEqual([
      ...at('turn.willStart', 'user-hooks', 'lsp', 'checkpoints', 'titles'),
      ...at('tool.willRun', 'checkpoints', 'user-hooks'),
      ...at('tool.didRun', 'lsp', 'user-hooks', 'checkpoints'),
      ...at('step.didEnd', 'checkpoints', 'compaction', 'lsp'),
      ...at('step.didEnd', 'checkpoints', 'compaction', 'lsp'),
      ...at('turn.didEnd', 'user-hooks', 'titles', 'checkpoints'),
    ])
    // Each feature did its part: the user's hooks ran in turn order, the message and the step have
    // checkpoints (recorded before the turn ended), and the model named the session afterwards.
    expect(readFileSync(join(root, 'hooks.log'), 'utf8')).toBe('submit\npost\nstop\n')
    expect(readFileSync(join(root, 'new.txt'), 'utf8')).toBe('hello\n')
    expect(services.checkpoints.list(project.id, session.id).length).toBeGreaterThanOrEqual(2)
    await services.agents.settleTitles(10_000)
    expect(services.sessions.get(session.id).title).toBe('Greeting file')
  })

  it('end the turn with a clear error when a hook fails at a turn-level point, and keep the transcript', async () => {
    const { services, session, prompt } = await setup([{ text: 'Hello there.' }, { text: 'Still here.' }])
    const ended: unknown[] = []
    services.bus.on('agent:turnEnded', (event) => ended.push(event))
    const broken = services.agents.hooks.on('step.didEnd', 'broken', () => {
      throw new Error('the disk is on fire')
    })

    const result = await prompt('hello')
    expect(result.status).toBe('error')
    expect(result.error).toEqual({ name: 'TurnHookFailed', data: { message: 'the broken hook failed at step.didEnd: the disk is on fire', point: 'step.didEnd', hook: 'broken' } })
    expect(ended).toEqual([{ sessionId: session.id, status: 'error', error: result.error }])
    const transcript = services.sessions.messages(session.id)
    expect(transcript.map((m) => m.info.role)).toEqual(['user', 'assistant'])
    expect(transcript[1]?.info.completedAt).toBeDefined()
    expect(transcript[1]?.parts.some((p) => p.type === 'text' && p.text === 'Hello there.')).toBe(true)

    // Without the broken hook the session goes on from the same transcript.
    broken.dispose()
    expect((await prompt('again')).status).toBe('completed')
    expect(services.sessions.messages(session.id).map((m) => m.info.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
  })

  it('keep a tool call\'s result when a hook fails after it, and show the failure on the call', async () => {
    const { services, root, session, prompt } = await setup([{ toolCalls: [{ name: 'write', args: { filePath: 'new.txt', content: 'hello\n' } }] }, { text: 'Done.' }])
    services.agents.hooks.on('tool.didRun', 'broken', () => {
      throw new Error('cannot annotate')
    })

    const result = await prompt('write a greeting')
    expect(result.status).toBe('completed')
    expect(existsSync(join(root, 'new.txt'))).toBe(true)
    const call = services.sessions.messages(session.id).flatMap((m) => m.parts).find((p) => p.type === 'tool')
    expect(call?.type === 'tool' && call.state.status).toBe('completed')
    expect(call?.type === 'tool' && call.state.metadata?.hookFailures).toEqual([{ command: 'broken', error: 'cannot annotate', event: 'tool.didRun' }])
  })

  it('refuse a tool call when a hook fails before it: the model reads why and nothing is written', async () => {
    const { fake, services, root, session, prompt } = await setup([{ toolCalls: [{ name: 'write', args: { filePath: 'new.txt', content: 'hello\n' } }] }, { text: 'Understood.' }])
    services.agents.hooks.on('tool.willRun', 'broken', () => {
      throw new Error('no guard today')
    })

    expect((await prompt('write a greeting')).status).toBe('completed')
    expect(existsSync(join(root, 'new.txt'))).toBe(false)
    const call = services.sessions.messages(session.id).flatMap((m) => m.parts).find((p) => p.type === 'tool')
    expect(call?.type === 'tool' && call.state.status).toBe('error')
    expect(JSON.stringify(fake.requests[1]?.body)).toContain('the broken hook failed before it (no guard today)')
  })
})
