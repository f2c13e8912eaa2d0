import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type FakeLlm, startFakeLlm, startFakeLlmProcess } from '../../fixtures/fake-llm'
import { JPEG_40x30, pngImage } from '../../support/images'

const KEY = 'sk-fake'
let server: FakeLlm
beforeEach(async () => {
  server = await startFakeLlm({ apiKey: KEY })
})
afterEach(async () => {
  await server.close()
})

function anthropicPost(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01', ...headers },
    body: JSON.stringify(body),
  })
}

function openaiPost(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.openaiBaseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, ...headers },
    body: JSON.stringify(body),
  })
}

const hi = [{ role: 'user', content: 'hi' }]

describe('fake LLM server wire format', () => {
  it('writes Anthropic Messages SSE frames in the real order', async () => {
    server.enqueue({ text: ['Hi', '!'], toolCalls: [{ id: 'toolu_1', name: 'read', args: { p: 1 } }], argChunks: 1 })
    const res = await anthropicPost({ model: 'claude-x', max_tokens: 10, stream: true, messages: hi })
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(res.headers.get('request-id')).toMatch(/^req_/)
    const text = await res.text()
    const frames = text.split('\n\n').filter(Boolean)
    expect(frames.map((f) => f.split('\n')[0])).toEqual([
      'event: message_start',
      'event: content_block_start',
      'event: ping',
      'event: content_block_delta',
      'event: content_block_delta',
      'event: content_block_stop',
      'event: content_block_start',
      'event: content_block_delta',
      'event: content_block_delta',
      'event: content_block_stop',
      'event: message_delta',
      'event: message_stop',
    ])
    expect(frames[2]).toBe('event: ping\ndata: {"type": "ping"}')
    expect(frames[3]).toBe('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}')
    expect(frames[6]).toBe(
      'event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"read","input":{}}}',
    )
    expect(frames[7]).toContain('"delta":{"type":"input_json_delta","partial_json":""}')
    expect(frames[8]).toContain('"partial_json":"{\\"p\\":1}"')
    expect(frames[10]).toMatch(/"delta":\{"stop_reason":"tool_use","stop_sequence":null\},"usage":\{"input_tokens":\d+/)
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true)
  })

  it('writes Chat Completions chunks, a usage chunk only when asked, then [DONE]', async () => {
    server.enqueue({ text: 'Hi', toolCalls: [{ id: 'call_1', name: 'read', args: {} }], argChunks: 1 }, { text: 'x' })
    const res = await openaiPost({ model: 'gpt-x', stream: true, stream_options: { include_usage: true }, messages: hi })
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const frames = (await res.text()).split('\n\n').filter(Boolean)
    expect(frames.at(-1)).toBe('data: [DONE]')
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice('data: '.length)) as Record<string, unknown>)
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && 'usage' in c)).toBe(true)
    const deltas = chunks.map((c) => (c.choices as Array<{ delta: unknown; finish_reason: unknown }>)[0])
    expect(deltas[0]).toMatchObject({ delta: { role: 'assistant', content: '', refusal: null }, finish_reason: null })
    expect(deltas[1]).toMatchObject({ delta: { content: 'Hi' } })
    expect(deltas[2]).toMatchObject({
      delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '' } }] },
    })
    expect(deltas[3]).toMatchObject({ delta: { tool_calls: [{ index: 0, function: { arguments: '{}' } }] } })
    expect(deltas[4]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' })
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } })

    const plain = await openaiPost({ model: 'gpt-x', stream: true, messages: hi })
    const plainFrames = (await plain.text()).split('\n\n').filter(Boolean)
    expect(plainFrames.some((f) => f.includes('"usage"'))).toBe(false)
  })

  it('answers non-streamed requests for both APIs', async () => {
    server.enqueue({ text: 'Title A' }, { text: 'Title B' })
    const a = (await (await anthropicPost({ model: 'claude-x', max_tokens: 10, messages: hi })).json()) as Record<string, unknown>
    expect(a).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Title A' }], stop_reason: 'end_turn' })
    const o = (await (await openaiPost({ model: 'gpt-x', messages: hi })).json()) as Record<string, unknown>
    expect(o).toMatchObject({ object: 'chat.completion', choices: [{ message: { role: 'assistant', content: 'Title B' }, finish_reason: 'stop' }] })
  })

  it('answers 401 in each API’s error shape when the key is missing', async () => {
    const a = await anthropicPost({ model: 'm', max_tokens: 1, messages: hi }, { 'x-api-key': 'nope' })
    expect(a.status).toBe(401)
    expect(await a.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } })
    const o = await openaiPost({ model: 'm', messages: hi }, { authorization: 'Bearer nope' })
    expect(o.status).toBe(401)
    expect(await o.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_api_key', param: null } })
  })

  it('answers 400 to unpaired tool calls and results, like the real APIs', async () => {
    const a = await anthropicPost({
      model: 'm',
      max_tokens: 1,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'x' }] },
      ],
    })
    expect(a.status).toBe(400)
    const aBody = (await a.json()) as { error: { type: string; message: string } }
    expect(aBody.error.type).toBe('invalid_request_error')
    expect(aBody.error.message).toContain('messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1')

    const orphan = await anthropicPost({
      model: 'm',
      max_tokens: 1,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] }],
    })
    expect(((await orphan.json()) as { error: { message: string } }).error.message).toContain(
      'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9',
    )

    const o = await openaiPost({
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'r', arguments: '{}' } }] },
        { role: 'user', content: 'skipped the result' },
      ],
    })
    expect(o.status).toBe(400)
    expect(await o.json()).toEqual({
      error: {
        message:
          "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1",
        type: 'invalid_request_error',
        param: 'messages.[1].role',
        code: null,
      },
    })
  })

  it('rejects blank text blocks, bad tool ids and more than 4 cache breakpoints (Anthropic)', async () => {
    const blank = await anthropicPost({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text', text: ' ' }] }] })
    expect(((await blank.json()) as { error: { message: string } }).error.message).toBe(
      'messages: text content blocks must contain non-whitespace text',
    )
    const badId = await anthropicPost({
      model: 'm',
      max_tokens: 1,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'a.b:1', name: 'r', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a.b:1', content: 'x' }] },
      ],
    })
    expect(((await badId.json()) as { error: { message: string } }).error.message).toContain("String should match pattern '^[a-zA-Z0-9_-]+$'")
    const cc = { type: 'ephemeral' }
    const tooMany = await anthropicPost({
      model: 'm',
      max_tokens: 1,
      system: [{ type: 'text', text: 's', cache_control: cc }],
      messages: [1, 2, 3, 4].map((n) => ({ role: n % 2 ? 'user' : 'assistant', content: [{ type: 'text', text: `t${n}`, cache_control: cc }] })),
    })
    expect(((await tooMany.json()) as { error: { message: string } }).error.message).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    )
  })

  it('checks image blocks like the real APIs: media type, base64, size, where images may go', async () => {
    const jpeg = JPEG_40x30.toString('base64')
    // The valid requests below are answered.
    server.enqueue({ text: 'ok' }, { text: 'ok' })
    const anthropicError = async (source: unknown, inToolResult = false): Promise<string> => {
      const image = { type: 'image', source }
      const messages = inToolResult
        ? [
            { role: 'user', content: 'go' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shot', input: {} }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'x' }, image] }] },
          ]
        : [{ role: 'user', content: [{ type: 'text', text: 'see' }, image] }]
      const res = await anthropicPost({ model: 'm', max_tokens: 1, messages })
      return res.status === 400 ? ((await res.json()) as { error: { message: string } }).error.message : `HTTP ${res.status}`
    }
    expect(await anthropicError({ type: 'base64', media_type: 'image/png', data: jpeg })).toBe(
      'messages.0.content.1.image.source.base64: The image was specified using the image/png media type, but the image appears to be a image/jpeg image',
    )
    expect(await anthropicError({ type: 'base64', media_type: 'image/bmp', data: jpeg })).toContain("media_type: Input should be 'image/jpeg'")
    expect(await anthropicError({ type: 'base64', media_type: 'image/jpeg', data: `data:image/jpeg;base64,${jpeg}` })).toContain('Invalid base64 data')
    const tall = pngImage(10, 8001).toString('base64')
    expect(await anthropicError({ type: 'base64', media_type: 'image/png', data: tall }, true)).toBe(
      'messages.2.content.0.tool_result.content.1.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels',
    )
    const huge = pngImage(1400, 1000, { noise: true }).toString('base64')
    expect(await anthropicError({ type: 'base64', media_type: 'image/png', data: huge })).toMatch(/image exceeds 5 MB maximum: \d+ bytes > 5242880 bytes/)
    expect(await anthropicError({ type: 'base64', media_type: 'image/jpeg', data: jpeg })).toBe('HTTP 200')

    const openaiError = async (messages: unknown[]): Promise<{ status: number; error?: { message: string; code: string } }> => {
      const res = await openaiPost({ model: 'm', messages })
      return { status: res.status, ...(res.status === 400 ? ((await res.json()) as { error: { message: string; code: string } }) : {}) }
    }
    const part = (url: string) => ({ type: 'image_url', image_url: { url } })
    expect(await openaiError([{ role: 'user', content: [part(jpeg)] }])).toMatchObject({ status: 400, error: { code: 'invalid_image_url', message: expect.stringContaining("without the 'data:' prefix") } })
    expect(await openaiError([{ role: 'user', content: [part(`data:image/bmp;base64,${jpeg}`)] }])).toMatchObject({ error: { message: expect.stringContaining("unsupported MIME type 'image/bmp'") } })
    expect(await openaiError([{ role: 'user', content: [part('data:image/png;base64,bm90IGFuIGltYWdl')] }])).toMatchObject({ error: { code: 'invalid_image_format' } })
    const call = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shot', arguments: '{}' } }] }
    expect(await openaiError([{ role: 'user', content: 'go' }, call, { role: 'tool', tool_call_id: 'c1', content: [part(`data:image/jpeg;base64,${jpeg}`)] }])).toMatchObject({
      error: { message: "Invalid 'messages[2]'. Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL." },
    })
    expect(await openaiError([{ role: 'user', content: [{ type: 'text', text: 'see' }, part(`data:image/jpeg;base64,${jpeg}`)] }])).toEqual({ status: 200 })
  })

  it('sends retry headers with scripted HTTP faults and says when the script is exhausted', async () => {
    server.enqueue({ fault: { type: 'http', status: 429, retryAfter: 2, retryAfterMs: 1500 } })
    const limited = await anthropicPost({ model: 'm', max_tokens: 1, messages: hi })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
    expect(limited.headers.get('retry-after-ms')).toBe('1500')
    expect(await limited.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } })
    const exhausted = await openaiPost({ model: 'm', messages: hi })
    expect(exhausted.status).toBe(400)
    expect(((await exhausted.json()) as { error: { message: string } }).error.message).toContain('no turn left')
    expect(server.requests.map((r) => [r.api, r.status])).toEqual([
      ['anthropic', 429],
      ['openai', 400],
    ])
  })

  it('computes a turn from the request when given a function', async () => {
    server.enqueue((request) => ({ text: `echo ${JSON.stringify((request.body as { messages: unknown[] }).messages.length)}` }))
    const o = (await (await openaiPost({ model: 'm', messages: hi })).json()) as { choices: Array<{ message: { content: string } }> }
    expect(o.choices[0]?.message.content).toBe('echo 1')
  })
})

describe('fake LLM server CLI (another process)', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fake-llm-'))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('starts from a script file, prints its URL, logs requests and accepts more turns', async () => {
    const script = join(dir, 'script.json')
    const log = join(dir, 'requests.jsonl')
    writeFileSync(script, JSON.stringify({ turns: [{ text: 'from file' }] }))
    const proc = await startFakeLlmProcess(['--script', script, '--log', log])
    try {
      expect(proc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const post = (body: unknown): Promise<Response> =>
        fetch(`${proc.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const first = (await (await post({ model: 'm', messages: hi })).json()) as { choices: Array<{ message: { content: string } }> }
      expect(first.choices[0]?.message.content).toBe('from file')
      await fetch(`${proc.url}/__fake/turns`, { method: 'POST', body: JSON.stringify([{ text: 'queued later' }]) })
      const second = (await (await post({ model: 'm', messages: hi })).json()) as { choices: Array<{ message: { content: string } }> }
      expect(second.choices[0]?.message.content).toBe('queued later')
      const recorded = (await (await fetch(`${proc.url}/__fake/requests`)).json()) as Array<{ path: string }>
      expect(recorded.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions'])
      const lines = readFileSync(log, 'utf8').trim().split('\n')
      expect(lines).toHaveLength(2)
      expect(JSON.parse(lines[0] as string)).toMatchObject({ api: 'openai', status: 200 })
    } finally {
      await proc.stop()
    }
    expect(proc.child.exitCode).toBe(0)
  })
})
