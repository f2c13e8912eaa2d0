import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru } from '../support/cli'
import { tempDir, writeTree } from '../support/temp'

const MODEL = 'anthropic/claude-sonnet-4-6'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

async function fake(turns: FakeTurn[]): Promise<FakeLlm> {
  const server = await startFakeLlm({ turns })
  servers.push(server)
  return server
}

type Body = {
  tools?: Array<Record<string, unknown>>
  messages: Array<{ role: string; content: string | Array<Record<string, unknown>> }>
}

const bodies = (server: FakeLlm): Body[] => server.requests.filter((r) => r.api !== 'control').map((r) => r.body as Body)

/** The tool result the model got for its last call, as text. */
function lastToolResult(body: Body | undefined): string {
  const blocks = body?.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])) ?? []
  const result = blocks.filter((b) => b.type === 'tool_result').at(-1)
  const content = result?.content
  return typeof content === 'string' ? content : JSON.stringify(content ?? '')
}

/** The main model calls websearch; the nested request searches; the main model answers. */
function searchTurns(args: Record<string, unknown>, search: FakeTurn): FakeTurn[] {
  return [{ toolCalls: [{ name: 'websearch', args }] }, search, { text: 'Done searching.' }]
}

const RESULTS: FakeTurn = {
  blocks: [
    {
      type: 'web-search',
      query: 'vite 8 release notes',
      results: [
        { title: 'Vite 8 is out!', url: 'https://vite.dev/blog/announcing-vite8', pageAge: '2 days ago' },
        { title: 'Pinned: vite 8', url: 'https://www.pinterest.com/pin/vite-8' },
      ],
    },
    {
      type: 'text',
      text: 'Vite 8 ships Rolldown as its bundler.',
      citations: [{ url: 'https://vite.dev/blog/announcing-vite8', title: 'Vite 8 is out!', citedText: 'Vite 8 uses Rolldown' }],
    },
  ],
}

describe('hotaru run with web search', () => {
  it('asks first: without anyone to answer, no search is sent and the model is told', async () => {
    const server = await fake([{ toolCalls: [{ name: 'websearch', args: { query: 'vite 8 release notes' } }] }, { text: 'I could not search.' }])
    const result = await runHotaru(['run', '--dir', tempDir(), '--model', MODEL, 'what is new in vite 8'], fakeProviderEnv(server, tempDir()))
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/permission needed for websearch: Search the web for "vite 8 release notes"/)
    const sent = bodies(server)
    expect(sent).toHaveLength(2)
    // Offered as our own tool: the main request carries no server tool.
    expect(sent[0]?.tools?.some((t) => t.name === 'websearch' && t.input_schema)).toBe(true)
    expect(sent[0]?.tools?.some((t) => String(t.type ?? '').startsWith('web_search'))).toBe(false)
    expect(lastToolResult(sent[1])).toMatch(/No one can answer permission requests/)
  })

  it('once allowed, searches with the server tool and hands the model titles, URLs and the cited answer', async () => {
    const server = await fake(searchTurns({ query: 'vite 8 release notes' }, RESULTS))
    const result = await runHotaru(['run', '--dir', tempDir(), '--model', MODEL, '--yes', 'what is new in vite 8'], fakeProviderEnv(server, tempDir()))
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Done searching.')
    const [main, search, after] = bodies(server)
    expect(search?.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 5, cache_control: { type: 'ephemeral' } }])
    expect(JSON.stringify(search?.messages)).toContain('Search the web for: vite 8 release notes')
    // The main request's tool list is the same before and after the search (the prompt cache holds).
    expect(after?.tools).toEqual(main?.tools)
    const output = lastToolResult(after)
    expect(output).toContain('[1] Vite 8 is out! — https://vite.dev/blog/announcing-vite8 (2 days ago)')
    expect(output).toContain('Vite 8 ships Rolldown as its bundler. [1]')
  })

  it('a domain the user denies is blocked at the provider and its results are left out', async () => {
    const server = await fake(searchTurns({ query: 'vite 8 release notes' }, RESULTS))
    const config = { permission: { websearch: { '*': 'allow', 'pinterest.com': 'deny' } } }
    const env = fakeProviderEnv(server, tempDir(), { HOTARU_CONFIG_CONTENT: JSON.stringify(config) })
    const result = await runHotaru(['run', '--dir', tempDir(), '--model', MODEL, 'what is new in vite 8'], env)
    expect(result.code).toBe(0)
    expect(result.stderr).not.toMatch(/permission needed/)
    const [, search, after] = bodies(server)
    expect(search?.tools?.[0]).toMatchObject({ blocked_domains: ['pinterest.com'] })
    const output = lastToolResult(after)
    expect(output).toContain('https://vite.dev/blog/announcing-vite8')
    expect(output).not.toContain('pinterest')
  })

  it('a search limited to an allowed domain runs without asking; one of the whole web still asks', async () => {
    const config = { permission: { websearch: { 'docs.python.org': 'allow' } } }
    const limited = await fake(searchTurns({ query: 'asyncio timeout', allowed_domains: ['https://docs.python.org/3/'] }, RESULTS))
    const env = fakeProviderEnv(limited, tempDir(), { HOTARU_CONFIG_CONTENT: JSON.stringify(config) })
    const first = await runHotaru(['run', '--dir', tempDir(), '--model', MODEL, 'asyncio timeout?'], env)
    expect(first.code).toBe(0)
    expect(first.stderr).not.toMatch(/permission needed/)
    expect(bodies(limited)[1]?.tools?.[0]).toMatchObject({ allowed_domains: ['docs.python.org'] })

    const open = await fake([{ toolCalls: [{ name: 'websearch', args: { query: 'asyncio timeout' } }] }, { text: 'No.' }])
    const second = await runHotaru(['run', '--dir', tempDir(), '--model', MODEL, 'asyncio timeout?'], fakeProviderEnv(open, tempDir(), { HOTARU_CONFIG_CONTENT: JSON.stringify(config) }))
    expect(second.stderr).toMatch(/permission needed for websearch/)
    expect(bodies(open)).toHaveLength(2)
  })

  it("an untrusted project's config cannot allow searches, but its deny holds", async () => {
    const widen = await fake([{ toolCalls: [{ name: 'websearch', args: { query: 'anything' } }] }, { text: 'No.' }])
    const project = writeTree(tempDir(), { '.hotaru/hotaru.json': JSON.stringify({ permission: { websearch: 'allow' } }) })
    const result = await runHotaru(['run', '--dir', project, '--model', MODEL, 'search'], fakeProviderEnv(widen, tempDir()))
    expect(result.stderr).toMatch(/permission needed for websearch/)
    expect(bodies(widen)).toHaveLength(2)

    const narrow = await fake([{ toolCalls: [{ name: 'websearch', args: { query: 'pins', allowed_domains: ['pinterest.com'] } }] }, { text: 'Denied.' }])
    const denying = writeTree(tempDir(), { '.hotaru/hotaru.json': JSON.stringify({ permission: { websearch: { 'pinterest.com': 'deny' } } }) })
    // The user's own config allows every search; the project's deny still holds.
    const dataDir = writeTree(tempDir(), { 'config/hotaru/hotaru.json': JSON.stringify({ permission: { websearch: { '*': 'allow' } } }) })
    const denied = await runHotaru(['run', '--dir', denying, '--model', MODEL, 'search'], fakeProviderEnv(narrow, dataDir))
    expect(denied.code).toBe(0)
    expect(bodies(narrow)).toHaveLength(2)
    expect(lastToolResult(bodies(narrow)[1])).toMatch(/denied|not allowed/i)
  })

  it('a model whose API has no server search is not offered the tool', async () => {
    const server = await fake([{ text: 'Hi.' }])
    const result = await runHotaru(['run', '--dir', tempDir(), '--model', 'openai/gpt-4.1', 'hi'], fakeProviderEnv(server, tempDir()))
    expect(result.code).toBe(0)
    const tools = (server.requests[0]?.body as { tools?: Array<{ function?: { name?: string } }> }).tools ?? []
    expect(tools.map((t) => t.function?.name)).toContain('webfetch')
    expect(tools.map((t) => t.function?.name)).not.toContain('websearch')
  })
})
