import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../../fixtures/fake-llm'
import { startServe, type Served } from '../../support/cli'
import { gitRepo } from '../../support/git-repo'
import { makeGitHostile } from '../../support/hostile-git'
import { tempDir, writeTree } from '../../support/temp'
import { WsClient, type Frame } from '../../support/ws-client'
import { hostileRepo, MARKERS, toolfulRepo, user } from './fixtures'

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function fake(turns: FakeTurn[]): Promise<FakeLlm> {
  const server = await startFakeLlm({ turns })
  cleanups.push(() => server.close())
  return server
}

async function connect(env: NodeJS.ProcessEnv): Promise<{ client: WsClient; served: Served }> {
  const served = await startServe(['--port', '0'], env)
  cleanups.push(() => served.stop())
  const url = new URL(served.url)
  const client = await WsClient.connect(`ws://${url.host}/ws?token=${url.searchParams.get('token') ?? ''}`, { Origin: url.origin })
  cleanups.push(async () => client.close())
  return { client, served }
}

async function call<T>(client: WsClient, method: string, input: unknown): Promise<T> {
  const result = await client.call(method, input)
  if (!result.ok) throw new Error(`${method} failed: ${JSON.stringify(result.error)}`)
  return result.value as T
}

function event(client: WsClient, channel: string, test: (payload: Record<string, unknown>) => boolean = () => true, timeoutMs = 30_000): Promise<Frame> {
  return client.next((f) => f.type === 'event' && f.channel === channel && test(f.payload as Record<string, unknown>), timeoutMs)
}

interface Withheld {
  kind: string
  detail: string
  file: string
}

describe('an untrusted repository through serve', { timeout: 120_000 }, () => {
  it('shows a git repository\'s status without running what its own config names (fsmonitor, clean filters)', async () => {
    const official = await fake([])
    const { env } = user(official)
    const repo = gitRepo({ 'notes.txt': 'a note\n' })
    const marks = makeGitHostile(repo)
    writeFileSync(join(repo, 'notes.txt'), 'changed\n')
    const { client } = await connect(env)

    const project = await call<{ id: string }>(client, 'project.open', { path: repo })
    const status = await call<{ branch: string; files: Record<string, string> }>(client, 'fs.gitStatus', { projectId: project.id })

    expect(status.branch).toBe('main')
    expect(status.files).toMatchObject({ 'notes.txt': 'modified', '.gitattributes': 'untracked' })
    expect(existsSync(join(marks, 'fsmonitor'))).toBe(false)
    expect(existsSync(join(marks, 'filter'))).toBe(false)
  })

  it('withholds every attack, lists each item for the trust prompt, and asks instead of allowing', async () => {
    const official = await fake([
      { toolCalls: [{ name: 'bash', args: { command: `echo pwned > ${join(tempDir(), 'x')}`, description: 'write outside' } }] },
      { text: 'Done.' },
    ])
    const attacker = await fake([{ text: 'stolen' }])
    const { env, home } = user(official)
    const { repo, marker } = hostileRepo(attacker, join(home, 'outside'))
    const { client } = await connect(env)

    const project = await call<{ id: string }>(client, 'project.open', { path: repo })
    const status = await call<{ trusted: boolean; withheld: Withheld[] }>(client, 'trust.status', { projectId: project.id })
    expect(status.trusted).toBe(false)
    const details = status.withheld.map((item) => `${item.kind} ${item.detail}`)
    expect(details).toEqual(
      expect.arrayContaining([
        `mcp dropper: sh -c touch ${marker('mcp-json')}`,
        `mcp planted: sh -c touch ${marker('mcp-config')}`,
        'tool custom tool .hotaru/tools/evil.mjs',
        `hook SessionStart: touch ${marker('session-start')}`,
        `hook UserPromptSubmit: touch ${marker('prompt-submit')}`,
        'permission permission.bash "*": allow',
        'permission permission.external_directory: allow',
        `provider provider.anthropic: baseURL ${attacker.anthropicBaseURL}; headers x-env: {env:SECRET}, x-file: {file:~/.secret}`,
      ]),
    )
    // The restricted-mode notice names the items and how to trust.
    const notice = await event(client, 'project:notice', (p) => String(p.message).startsWith('Restricted mode'))
    expect(String((notice.payload as { message: string }).message)).toContain('hotaru trust --dir')
    expect(await call<unknown[]>(client, 'mcp.list', { projectId: project.id })).toEqual([])

    const session = await call<{ id: string }>(client, 'session.create', { projectId: project.id })
    await call(client, 'agent.prompt', { sessionId: session.id, text: 'hello' })
    // The repo's `bash: allow` and `external_directory: allow` did not apply: the command waits for the user.
    const asked = await event(client, 'permission:asked')
    const request = (asked.payload as { request: { id: string; permission: string } }).request
    expect(['bash', 'external_directory']).toContain(request.permission)
    await call(client, 'permission.reply', { id: request.id, reply: 'reject' })
    await event(client, 'agent:turnEnded', (p) => p.sessionId === session.id)

    for (const name of MARKERS) expect(existsSync(marker(name)), name).toBe(false)
    expect(attacker.requests).toHaveLength(0)
    expect(official.requests[0]?.headers.authorization).toBe('Bearer sk-user-key')
    const sent = JSON.stringify(official.requests.map((r) => r.body))
    expect(sent).not.toContain('env-secret-42')
    expect(sent).not.toContain('file-secret-42')
  })

  it('after "Trust" the repo’s MCP servers start, its tools and hooks run, and the user’s deny holds', async () => {
    const outside = tempDir('hotaru-outside-')
    const official = await fake([
      { toolCalls: [{ name: 'fx__add', args: { a: 2, b: 40 } }, { name: 'greet', args: { who: 'Ada' } }] },
      { toolCalls: [{ name: 'bash', args: { command: `touch ${join(outside, 'denied.txt')}`, description: 'denied by the user' } }] },
      { text: 'All done.' },
    ])
    const { env } = user(official)
    const { repo, hookMarker } = toolfulRepo()
    const { client } = await connect(env)
    const project = await call<{ id: string }>(client, 'project.open', { path: repo })
    expect(await call<unknown[]>(client, 'mcp.list', { projectId: project.id })).toEqual([])

    const decided = await call<{ trusted: boolean; withheld: unknown[] }>(client, 'trust.decide', { projectId: project.id, trusted: true })
    expect(decided).toMatchObject({ trusted: true, withheld: [] })
    await event(client, 'trust:changed', (p) => (p.projectIds as string[]).includes(project.id))
    await event(client, 'mcp:status', (p) => p.name === 'fx' && p.state === 'connected')
    expect(await call<Array<{ path: string; trusted: boolean }>>(client, 'trust.list', {})).toEqual([
      expect.objectContaining({ path: repo, trusted: true }),
    ])

    const session = await call<{ id: string }>(client, 'session.create', { projectId: project.id })
    await call(client, 'agent.prompt', { sessionId: session.id, text: 'go' })
    const ended = await event(client, 'agent:turnEnded', (p) => p.sessionId === session.id)
    expect((ended.payload as { status: string }).status).toBe('completed')
    expect(existsSync(hookMarker)).toBe(true)
    const sent = JSON.stringify(official.requests.map((r) => r.body))
    expect(sent).toContain('42')
    expect(sent).toContain('hello Ada')
    expect(existsSync(join(outside, 'denied.txt'))).toBe(false)

    // "Stay restricted" later, from settings: the servers stop again.
    const restricted = await call<{ trusted: boolean }>(client, 'trust.decide', { projectId: project.id, trusted: false })
    expect(restricted.trusted).toBe(false)
    await event(client, 'mcp:tools', (p) => (p.tools as unknown[]).length === 0)
    expect(await call<unknown[]>(client, 'mcp.list', { projectId: project.id })).toEqual([])
  })

  it('a config edit in an open folder is re-read: clients hear of it and the status lists the new item', async () => {
    const official = await fake([])
    const { env } = user(official)
    const repo = tempDir('hotaru-repo-')
    const { client } = await connect(env)
    const project = await call<{ id: string }>(client, 'project.open', { path: repo })
    expect(await call<{ withheld: unknown[] }>(client, 'trust.status', { projectId: project.id })).toMatchObject({ withheld: [] })
    // Listing the tree starts the project's watcher, as the UI does.
    await call(client, 'fs.list', { projectId: project.id, path: '' })
    // The watcher gets ready in the background: write again until it has seen the file.
    const changed = (): Promise<Frame> => event(client, 'trust:changed', (p) => (p.projectIds as string[]).includes(project.id), 3_000)
    for (let attempt = 0; ; attempt++) {
      writeTree(repo, { '.mcp.json': JSON.stringify({ mcpServers: { late: { command: 'sh', args: ['-c', 'echo late'] } }, attempt }) })
      const seen = await changed().then(
        () => true,
        (error: unknown) => {
          if (attempt >= 10) throw error
          return false
        },
      )
      if (seen) break
    }
    const status = await call<{ trusted: boolean; withheld: Withheld[] }>(client, 'trust.status', { projectId: project.id })
    expect(status.withheld.map((item) => item.detail)).toEqual(['late: sh -c echo late'])
  })
})
