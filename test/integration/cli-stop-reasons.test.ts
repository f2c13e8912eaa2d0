import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru } from '../support/cli'
import { tempDir } from '../support/temp'

/** What `hotaru run` prints and exits with for each way a turn can end (the built CLI, real SDKs). */

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

async function run(turns: FakeTurn[], model: string, extra: string[] = []) {
  const server = await startFakeLlm({ turns })
  servers.push(server)
  const result = await runHotaru(['run', '--dir', tempDir(), '--model', model, ...extra, 'answer me'], fakeProviderEnv(server, tempDir()))
  return { ...result, server }
}

type JsonEvent = { type: string; [key: string]: unknown }

function events(stdout: string): JsonEvent[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as JsonEvent)
}

describe('hotaru run: stop reasons', () => {
  it('prints a refusal with its explanation and exits 3', async () => {
    const result = await run(
      [
        {
          text: 'Hello..',
          stopReason: 'refusal',
          stopDetails: { type: 'refusal', category: 'cyber', explanation: 'This request was declined because it could enable cyber harm.' },
        },
      ],
      'anthropic/claude-sonnet-4-6',
    )
    expect(result.code).toBe(3)
    expect(result.stdout).toContain('Declined: This request was declined because it could enable cyber harm. (cyber)')
    expect(result.stderr).toContain('hotaru run: the model declined to answer: This request was declined because it could enable cyber harm. (cyber)')
  })

  it('reports a refusal in --format json', async () => {
    const result = await run([{ refusal: "I'm sorry, I can't help with that." }], 'openai/gpt-4.1', ['--format', 'json'])
    expect(result.code).toBe(3)
    expect(events(result.stdout).at(-1)).toMatchObject({ type: 'done', status: 'refused', finish: 'refusal', refused: true, truncated: false })
  })

  it('says a content-filtered answer was withheld, exit 3', async () => {
    const result = await run([{ text: 'Here is', stopReason: 'content_filter' }], 'openai/gpt-4.1')
    expect(result.code).toBe(3)
    expect(result.stdout).toContain('Here is')
    expect(result.stderr).toContain("hotaru run: the provider's content filter withheld the answer")
  })

  it('continues a cut-off answer once and exits 0 when it then finishes', async () => {
    const result = await run([{ text: 'The first half', stopReason: 'max_tokens' }, { text: ' and the rest.' }], 'anthropic/claude-sonnet-4-6', [
      '--format',
      'json',
    ])
    expect(result.code).toBe(0)
    const all = events(result.stdout)
    expect(all.at(-1)).toMatchObject({ type: 'done', status: 'completed', finish: 'stop', truncated: false })
    // The first step's message says it was cut off.
    const cut = all.find((e) => e.type === 'session:message' && (e.message as { finish?: string }).finish === 'length')
    expect(cut).toBeDefined()
    expect(result.server.requests.filter((r) => r.api !== 'control')).toHaveLength(2)
  })

  it('says the final answer was cut off and exits 4 when the continuation is cut off too', async () => {
    const result = await run([{ text: 'One', stopReason: 'length' }, { text: 'Two', stopReason: 'length' }], 'openai/gpt-4.1')
    expect(result.code).toBe(4)
    expect(result.stdout).toContain('One')
    expect(result.stdout).toContain('Two')
    expect(result.stderr).toContain('… response cut off at the output limit')
    expect(result.stderr).toContain('hotaru run: the answer was cut off at the output limit')
  })

  it('reports truncation in --format json', async () => {
    const result = await run([{ text: 'One', stopReason: 'length' }, { text: 'Two', stopReason: 'length' }], 'openai/gpt-4.1', ['--format', 'json'])
    expect(result.code).toBe(4)
    expect(events(result.stdout).at(-1)).toMatchObject({ type: 'done', status: 'truncated', finish: 'length', truncated: true, refused: false })
  })
})
