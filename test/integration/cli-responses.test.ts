import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru } from '../support/cli'
import { tempDir, writeTree } from '../support/temp'

/** `hotaru run` with an OpenAI codex model, end to end over `/v1/responses` against the fake server. */

type Item = Record<string, unknown>
type Body = { model: string; input: Item[]; store?: boolean; include?: string[]; reasoning?: Item; prompt_cache_key?: string; tools?: Item[] }

let server: FakeLlm | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('hotaru run over openai/gpt-5-codex', () => {
  it('runs a tool through the Responses API and sends the reasoning item, the call and its output back', async () => {
    server = await startFakeLlm({
      turns: [
        { api: 'responses', reasoning: 'I need to read notes.txt first.', toolCalls: [{ id: 'call_notes', name: 'read', args: { filePath: 'notes.txt' } }] },
        { api: 'responses', reasoning: 'It says hello.', text: 'The note says hello.' },
      ],
    })
    const project = writeTree(tempDir(), { 'notes.txt': 'hello from the note\n' })
    const result = await runHotaru(
      ['run', '--dir', project, '--model', 'openai/gpt-5-codex', '--effort', 'high', '--format', 'json', '--yes', 'what does notes.txt say?'],
      fakeProviderEnv(server, tempDir()),
    )
    expect(result.stderr).not.toMatch(/error/i)
    expect(result.code).toBe(0)
    const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; [key: string]: unknown })
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed' })
    const session = events.find((e) => e.type === 'session') as { session?: { id?: string }; id?: string } | undefined
    const sessionId = session?.session?.id ?? session?.id
    expect(sessionId).toBeTruthy()

    const requests = server.requests.filter((r) => r.api !== 'control')
    expect(requests.map((r) => [r.path, r.status])).toEqual([
      ['/v1/responses', 200],
      ['/v1/responses', 200],
    ])
    const [first, second] = requests.map((r) => r.body as Body)
    expect(first).toMatchObject({ model: 'gpt-5-codex', store: false, include: ['reasoning.encrypted_content'] })
    // The chosen effort goes with every step, with summaries to show.
    expect(first?.reasoning).toEqual({ effort: 'high', summary: 'auto' })
    expect(second?.reasoning).toEqual({ effort: 'high', summary: 'auto' })
    expect(first?.tools?.some((t) => t.name === 'read')).toBe(true)
    // Both steps of the session share one prompt cache.
    expect(first?.prompt_cache_key).toBe(sessionId)
    expect(second?.prompt_cache_key).toBe(sessionId)

    // The follow-up request: the user's message, the reasoning item as issued (the server checked its seal), the
    // call and its output, in that order.
    const input = second?.input ?? []
    expect(input[0]).toMatchObject({ type: 'message', role: 'user' })
    expect(input[1]).toEqual({
      type: 'reasoning',
      id: expect.stringMatching(/^rs_/),
      summary: [{ type: 'summary_text', text: 'I need to read notes.txt first.' }],
      encrypted_content: expect.stringMatching(/^gAAAAAB/),
    })
    expect(input[2]).toEqual({ type: 'function_call', call_id: 'call_notes', name: 'read', arguments: JSON.stringify({ filePath: 'notes.txt' }) })
    expect(input[3]).toMatchObject({ type: 'function_call_output', call_id: 'call_notes' })
    expect(String(input[3]?.output)).toContain('hello from the note')
    expect(input).toHaveLength(4)

    const deltas = events.filter((e) => e.type === 'session:delta').map((e) => e.delta).join('')
    expect(deltas).toContain('The note says hello.')
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('hello from the note\n')
  })

  it('--effort max asks codex-max for xhigh and a codex model without it for high', async () => {
    server = await startFakeLlm({ turns: [{ api: 'responses', text: 'one' }, { api: 'responses', text: 'two' }] })
    const env = fakeProviderEnv(server, tempDir())
    const project = tempDir()
    for (const model of ['openai/gpt-5.1-codex-max', 'openai/gpt-5-codex']) {
      const result = await runHotaru(['run', '--dir', project, '--model', model, '--effort', 'max', 'hi'], env)
      expect(result.code, result.stderr).toBe(0)
    }
    const efforts = server.requests.filter((r) => r.api === 'responses').map((r) => (r.body as Body).reasoning)
    expect(efforts).toEqual([
      { effort: 'xhigh', summary: 'auto' },
      { effort: 'high', summary: 'auto' },
    ])
  })
})
