import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru } from '../support/cli'
import { tempDir, writeTree } from '../support/temp'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

async function fake(turns: FakeTurn[]) {
  const server = await startFakeLlm({ turns })
  servers.push(server)
  return server
}

type Body = Record<string, unknown>
const firstBody = (server: FakeLlm): Body => server.requests[0]?.body as Body

async function run(args: string[], turns: FakeTurn[] = [{ text: 'ok' }]) {
  const server = await fake(turns)
  const result = await runHotaru(['run', '--dir', tempDir(), ...args, 'hello'], fakeProviderEnv(server, tempDir()))
  return { server, result }
}

describe('hotaru run --effort', () => {
  it('sends adaptive thinking to Claude by default', async () => {
    const { server, result } = await run(['--model', 'anthropic/claude-sonnet-5-5'])
    expect(result.code).toBe(0)
    expect(firstBody(server)).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } })
  })

  it('changes what is sent between low and high, and sends no thinking with off', async () => {
    const low = await run(['--model', 'anthropic/claude-sonnet-5-5', '--effort', 'low'])
    const high = await run(['--model', 'anthropic/claude-sonnet-5-5', '--effort', 'high'])
    const off = await run(['--model', 'anthropic/claude-sonnet-4-6', '--effort', 'off'])
    expect([low.result.code, high.result.code, off.result.code]).toEqual([0, 0, 0])
    expect(firstBody(low.server).output_config).toEqual({ effort: 'low' })
    expect(firstBody(high.server).output_config).toEqual({ effort: 'high' })
    expect(firstBody(off.server)).not.toHaveProperty('thinking')
    expect(firstBody(off.server)).not.toHaveProperty('output_config')
  })

  it('scales a manual thinking budget and sends OpenAI its reasoning_effort', async () => {
    const low = await run(['--model', 'anthropic/claude-haiku-4-5', '--effort', 'low'])
    const max = await run(['--model', 'anthropic/claude-haiku-4-5', '--effort', 'max'])
    expect(firstBody(low.server).thinking).toEqual({ type: 'enabled', budget_tokens: 4_000 })
    expect(firstBody(max.server).thinking).toEqual({ type: 'enabled', budget_tokens: 48_000 })
    const gpt = await run(['--model', 'openai/gpt-5', '--effort', 'high'])
    const sent = firstBody(gpt.server)
    expect(sent.reasoning_effort ?? (sent.reasoning as { effort?: string } | undefined)?.effort).toBe('high')
  })

  it('refuses an unknown level before anything is sent', async () => {
    const { server, result } = await run(['--effort', 'extreme'])
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain('--effort must be one of off, low, medium, high, max, got "extreme"')
    expect(server.requests).toHaveLength(0)
  })

  it('takes the effort from the project config, and says once when a model cannot take a level', async () => {
    const server = await fake([{ text: 'ok' }, { text: 'ok' }])
    const dataDir = tempDir()
    const project = writeTree(tempDir(), { 'hotaru.json': JSON.stringify({ effort: 'medium' }) })
    const env = fakeProviderEnv(server, dataDir)
    const configured = await runHotaru(['run', '--dir', project, '--model', 'anthropic/claude-sonnet-5-5', 'hello'], env)
    expect(configured.code).toBe(0)
    expect((server.requests[0]?.body as Body).output_config).toEqual({ effort: 'medium' })
    const clamped = await runHotaru(['run', '--dir', project, '--model', 'anthropic/claude-opus-5-5', '--effort', 'off', 'hello'], env)
    expect(clamped.code).toBe(0)
    expect(clamped.stderr).toContain('anthropic/claude-opus-5-5 does not take --effort off; it runs at low')
    expect((server.requests[1]?.body as Body).output_config).toEqual({ effort: 'low' })
  })

  it('names a retired model and its successor in one line, without the SDK warning', async () => {
    const { result } = await run(['--model', 'anthropic/claude-sonnet-4-5'])
    expect(result.code).toBe(0)
    const lines = result.stderr.split('\n').filter((l) => l.includes('claude-sonnet-4-5'))
    expect(lines).toEqual(['warning: anthropic/claude-sonnet-4-5 reached its end of life on 2026-11-30 and may be refused; use anthropic/claude-sonnet-5-5 instead.'])
    expect(result.stderr).not.toContain('Please migrate to a newer model')
  })

  it('streams the reasoning into --format json as part and delta events', async () => {
    const { result } = await run(['--model', 'anthropic/claude-sonnet-5-5', '--format', 'json'], [
      { reasoning: 'Thinking it over.', signature: 'sig-json', text: 'Answer.', usage: { reasoning: 7 } },
    ])
    expect(result.code).toBe(0)
    const events = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; part?: { type: string; id: string }; partId?: string; delta?: string })
    const part = events.find((e) => e.type === 'session:part' && e.part?.type === 'reasoning')?.part
    expect(part).toBeDefined()
    const streamed = events.filter((e) => e.type === 'session:delta' && e.partId === part?.id).map((e) => e.delta).join('')
    expect(streamed).toBe('Thinking it over.')
  })
})
