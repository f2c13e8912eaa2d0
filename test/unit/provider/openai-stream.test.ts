import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { mapOpenAIStream, openaiCompletion } from '../../../src/main/core/provider/adapters/openai-stream'
import type { StreamEvent } from '../../../src/main/core/provider/types'
import { loadCases } from '../../fixtures/replay/case'

/**
 * The Chat Completions mapper on recorded chunks (the replay corpus): every call is
 * assembled whole, under its own id and name, in the order the server began them.
 */

const ctx = { providerId: 'test', model: 'm' }

async function* feed(chunks: unknown[]): AsyncGenerator<ChatCompletionChunk> {
  for (const chunk of chunks) yield chunk as ChatCompletionChunk
}

async function collect(chunks: unknown[]): Promise<StreamEvent[]> {
  const events: StreamEvent[] = []
  for await (const event of mapOpenAIStream(feed(chunks), ctx, undefined)) events.push(event)
  return events
}

function recorded(name: string, response = 0): unknown[] {
  const found = loadCases().find((c) => c.name === name)
  const sse = found?.replay.responses[response]?.sse
  if (!sse) throw new Error(`no recorded stream ${name}#${response}`)
  return sse.filter((event) => typeof event !== 'string')
}

const ends = (events: StreamEvent[]) =>
  events.flatMap((e) => (e.type === 'tool-call-end' ? [{ id: e.id, name: e.name, input: 'input' in e ? e.input : e.inputError }] : []))

describe('Chat Completions stream assembly on recorded chunks', () => {
  it("interleaves Gemini's parallel calls by index and ends the first once the second streams", async () => {
    const events = await collect(recorded('gemini/parallel-interleaved.json'))
    expect(ends(events)).toEqual([
      { id: 'call-paris', name: 'get_weather', input: { location: 'Paris' } },
      { id: 'call-london', name: 'get_weather', input: { location: 'London' } },
    ])
    // Paris is whole when London's arguments arrive: the loop may run it while London still streams.
    const parisEnd = events.findIndex((e) => e.type === 'tool-call-end' && e.id === 'call-paris')
    const londonArgs = events.findIndex((e) => e.type === 'tool-call-delta' && e.id === 'call-london')
    expect(parisEnd).toBeLessThan(londonArgs)
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls', rawReason: 'tool_calls' })
    // Only the first call carries a thought signature; it stays with that call.
    const signatures = events.flatMap((e) => (e.type === 'tool-call-end' ? [e.signature] : []))
    expect(signatures).toEqual(['<Signature A>', undefined])
  })

  it('starts a Grok call only once its late name is known, with the arguments streamed before it', async () => {
    const events = await collect(recorded('xai/late-tool-name.json'))
    const calls = events.filter((e) => e.type.startsWith('tool-call'))
    expect(calls[0]).toEqual({ type: 'tool-call-start', id: 'call_late', name: 'test-tool' })
    expect(calls.filter((e) => e.type === 'tool-call-delta').map((e) => (e.type === 'tool-call-delta' ? e.argsDelta : '')).join('')).toBe('{"value":"hi"}')
    expect(ends(events)).toEqual([{ id: 'call_late', name: 'test-tool', input: { value: 'hi' } }])
  })

  it.each(['ollama/parallel-index-zero.json', 'ollama/parallel-no-index.json'])('keeps parallel Ollama calls apart by id (%s)', async (name) => {
    const events = await collect(recorded(name))
    expect(ends(events)).toEqual([
      { id: 'call_h3llo0py', name: 'write', input: { filePath: 'hello.py', content: 'print("hello")\n' } },
      { id: 'call_w0rld0py', name: 'write', input: { filePath: 'world.py', content: 'print("world")\n' } },
    ])
  })

  it('takes object arguments (LiteLLM before Ollama) as the whole input and runs the calls despite finish_reason stop', async () => {
    const events = await collect(recorded('litellm/ollama-object-arguments.json'))
    expect(ends(events)).toEqual([
      { id: 'call_a1', name: 'write', input: { filePath: 'a.txt', content: 'alpha\n' } },
      { id: 'call_b2', name: 'write', input: { filePath: 'b.txt', content: 'beta\n' } },
    ])
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls', rawReason: 'stop' })
  })

  it.each([
    ['openai/chat-tool-call.json', [{ id: 'call_PieqNSej6kM9hgYbcQdbZSaC', name: 'get_weather', input: { location: 'Tokyo' } }]],
    ['deepseek/reasoner-tool-call.json', [{ name: 'weather', input: { location: 'San Francisco' } }]],
    ['xai/grok-tool-call.json', [{ id: 'call_55117580', name: 'weather', input: { location: 'San Francisco' } }]],
  ])('assembles the single call of %s', async (name, wanted) => {
    const events = await collect(recorded(name))
    expect(ends(events)).toMatchObject(wanted)
  })

  it('ignores empty-string ids and names in continuation chunks', async () => {
    // The gpt-4.1-nano recording, with continuation chunks carrying "" where OpenAI sends null (as some servers do).
    const chunks = recorded('openai/chat-tool-call.json').map((chunk) => {
      const copy = structuredClone(chunk) as { choices: Array<{ delta: { tool_calls?: Array<{ id: string | null; function: { name: string | null } }> | null } }> }
      for (const call of copy.choices[0]?.delta.tool_calls ?? []) {
        if (call.id === null) call.id = ''
        if (call.function.name === null) call.function.name = ''
      }
      return copy
    })
    const events = await collect(chunks)
    expect(ends(events)).toEqual([{ id: 'call_PieqNSej6kM9hgYbcQdbZSaC', name: 'get_weather', input: { location: 'Tokyo' } }])
    expect(events.filter((e) => e.type === 'tool-call-start')).toHaveLength(1)
  })

  it('sends no call for an empty trailing delta after a call ended', async () => {
    const [first, ...rest] = recorded('ollama/parallel-index-zero.json')
    const trailing = { ...(first as object), choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '' } }] }, finish_reason: null }] }
    const events = await collect([first, rest[0], trailing, ...rest.slice(1)])
    expect(ends(events).map((c) => c.id)).toEqual(['call_h3llo0py', 'call_w0rld0py'])
  })
})

describe('non-streamed Chat Completions', () => {
  it('takes object arguments and a missing id and type, and runs calls a stop finish carries', () => {
    const response = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'qwen3:8b',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: {
            role: 'assistant',
            content: '',
            tool_calls: [
              { function: { name: 'write', arguments: { filePath: 'a.txt', content: 'alpha\n' } } },
              { id: 'call_2', type: 'function', function: { name: 'read', arguments: '{"filePath":"a.txt"}' } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    } as unknown as ChatCompletion
    const completion = openaiCompletion(response)
    expect(completion.finishReason).toBe('tool_calls')
    expect(completion.toolCalls).toMatchObject([
      { name: 'write', input: { filePath: 'a.txt', content: 'alpha\n' } },
      { id: 'call_2', name: 'read', input: { filePath: 'a.txt' } },
    ])
    expect(completion.toolCalls[0]?.id).toMatch(/^call_[0-9a-f]{24}$/)
  })
})
