import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { diagnosticsAfterTool, lateDiagnostics } from '../../../src/main/core/lsp/after-edit'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { fakeProviderEnv } from '../../support/cli'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { waitFor } from './helpers'

const SERVER = join(import.meta.dirname, '../../fixtures/lsp-server/quiet-server.mjs')
const SESSION = 'ses_0000000000late'

const fakes: FakeLlm[] = []
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close()
})

function project(mode: 'silent' | 'stuck' | 'gated' | 'pull', files: Record<string, string> = {}) {
  return writeTree(tempDir(), {
    'a.q': 'fine\n',
    ...files,
    'hotaru.json': JSON.stringify({ permission: { edit: 'allow' }, lsp: { quiet: { command: [process.execPath, SERVER, mode], extensions: ['.q'] } } }),
  })
}

async function edit(root: string, mode: 'silent' | 'stuck' | 'gated' | 'pull') {
  const services = testServices()
  services.trust.trust(root)
  const lsp = await services.lsp.load(services.projects.openFolder(root))
  // A server that answered its handshake but has not reported yet (still loading the project, as tsserver does).
  if (mode !== 'stuck') expect(await lsp.handleFor(join(root, 'a.q'))?.ensure()).toBeDefined()
  const signal = new AbortController().signal
  const result = await diagnosticsAfterTool(lsp, { tool: 'edit', sessionId: SESSION, metadata: { filePath: join(root, 'a.q') }, failed: false, signal, waitMs: services.lsp.waitMs, quietMs: services.lsp.quietMs })
  return { lsp, result }
}

describe('an edit never waits for a language server that is starting or slow', () => {
  it.each(['silent', 'stuck'] as const)('a %s server: the result claims nothing and notes nothing; the file is owed its report', async (mode) => {
    const { lsp, result } = await edit(project(mode), mode)
    expect(result).toBeUndefined()
    expect(lsp.diagnosticsOf(SESSION).owed()).toHaveLength(1)
  }, 60_000)

  it('a pull server whose last answer is for an older version is done when that answer comes, not a quiet period later', async () => {
    const root = project('pull', { 'a.q': 'bad\n' })
    const { lsp } = await edit(root, 'pull')
    writeFileSync(join(root, 'a.q'), 'still bad\n')
    await diagnosticsAfterTool(lsp, { tool: 'edit', sessionId: SESSION, metadata: { filePath: join(root, 'a.q') }, failed: false, signal: new AbortController().signal, waitMs: 0, quietMs: 0 })
    // The server answers the newer request first; the older version's answer comes last and reports nothing.
    writeFileSync(join(root, '.release'), '')
    // A quiet period longer than the test may take: the wait has to end on the answers themselves.
    const told = await lsp.settle(SESSION, { maxMs: 600_000, quietMs: 600_000, signal: new AbortController().signal })
    expect(told.join('\n')).toContain('pulled: bad word')
  }, 30_000)

  it('what the server reports later is handed over once, and a fix is reported as such', async () => {
    const root = project('gated', { 'a.q': 'bad\n' })
    const { lsp, result } = await edit(root, 'gated')
    expect(result).toBeUndefined()
    expect(lateDiagnostics(lsp, SESSION)).toEqual([])
    writeFileSync(join(root, '.release'), '')
    await waitFor(() => lsp.diagnosticsOf(SESSION).owed().length === 0)
    const [late] = lateDiagnostics(lsp, SESSION)
    expect(late?.text).toMatch(/^Errors in a\.q:\na\.q:1:1 error: gated: bad word$/)
    // Told once: nothing new until the file changes.
    expect(lateDiagnostics(lsp, SESSION)).toEqual([])
    // The server is warm now: the fix's own result carries its report.
    writeFileSync(join(root, 'a.q'), 'good\n')
    const fixed = await diagnosticsAfterTool(lsp, { tool: 'edit', sessionId: SESSION, metadata: { filePath: join(root, 'a.q') }, failed: false, signal: new AbortController().signal, waitMs: 30_000, quietMs: 100 })
    expect(fixed?.output).toBe('Diagnostics:\nNo errors in a.q.')
  }, 60_000)
})

describe('a turn does not end on errors its edits caused without the model hearing of them', () => {
  it('waits for the slow server before it ends, tells the model, and the model goes on', async () => {
    const fake = await startFakeLlm({
      turns: [{ toolCalls: [{ name: 'write', args: { filePath: 'b.q', content: 'bad\n' } }] }, { text: 'Done.' }, { text: 'I see the error in b.q.' }],
    })
    fakes.push(fake)
    const root = project('gated')
    // The bound of the wait is not under test: a loaded machine may take seconds to start even this server.
    const services = testServices({ env: fakeProviderEnv(fake, tempDir()), lsp: { settleMs: 60_000 } })
    services.trust.trust(root)
    const session = services.sessions.create({ projectId: services.projects.openFolder(root).id, agent: 'build', model: 'anthropic/claude-sonnet-4-5' })
    const turn = services.agents.prompt({ sessionId: session.id, text: 'write b.q' })
    // The server finishes its check only after the model has answered "Done.".
    await waitFor(() => fake.requests.length >= 2)
    expect(JSON.stringify(fake.requests[1]?.body)).not.toContain('gated: bad word')
    writeFileSync(join(root, '.release'), '')
    expect((await turn).status).toBe('completed')
    expect(fake.requests).toHaveLength(3)
    const last = (fake.requests[2]?.body as { messages: Array<{ role: string; content: unknown }> }).messages.at(-1)
    expect(last?.role).toBe('user')
    expect(JSON.stringify(last?.content)).toMatch(/system-reminder.*b\.q:1:1 error: gated: bad word/)
    const transcript = services.sessions.messages(session.id)
    expect(transcript.at(-1)?.parts.some((p) => p.type === 'text' && p.text === 'I see the error in b.q.')).toBe(true)
  }, 60_000)
})

describe('a one-shot run waiting for the reports its edits are owed', () => {
  it('has stopped its message walk by then, so the walk does not take the CPU from the servers', async () => {
    const fake = await startFakeLlm({
      turns: [{ toolCalls: [{ name: 'write', args: { filePath: 'b.q', content: 'fine\n' } }] }, { text: 'Done.' }],
    })
    fakes.push(fake)
    // More files than one check of the walk's stop flag covers: the walk reaches a check, where it holds.
    const root = project('gated', Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`pages/page${i}.md`, `# ${i}\n`])))
    // As `hotaru run` (its walks stop when its turn ends), with a walk that holds still until it is stopped.
    const env = { ...fakeProviderEnv(fake, tempDir()), HOTARU_WALK_STALL_MS: '60000' }
    const services = testServices({ transport: 'cli', env, lsp: { settleMs: 60_000 } })
    services.trust.trust(root)
    const opened = services.projects.openFolder(root)
    const session = services.sessions.create({ projectId: opened.id, agent: 'build', model: 'anthropic/claude-sonnet-4-5' })
    const turn = services.agents.prompt({ sessionId: session.id, text: 'write b.q' })
    await waitFor(() => fake.requests.length >= 2)
    // The server has not reported yet, so the turn is still waiting for it: the message's walk is over all the same.
    await services.checkpoints.idle(opened.id)
    expect(existsSync(join(root, '.release'))).toBe(false)
    writeFileSync(join(root, '.release'), '')
    expect((await turn).status).toBe('completed')
    expect(services.checkpoints.list(opened.id).map((c) => c.trigger)).toEqual(['message', 'step'])
  }, 60_000)
})

describe('language servers start as a project opens', () => {
  it('a project whose root names its language starts that server as it opens; a restricted one does not run the server its own config names', async () => {
    const services = testServices()
    const trusted = writeTree(tempDir(), { 'go.mod': 'module x\n', 'hotaru.json': JSON.stringify({ lsp: { gopls: { command: [process.execPath, SERVER, 'silent'] } } }) })
    services.trust.trust(trusted)
    const project = services.projects.openFolder(trusted)
    const lsp = services.lsp.for(project)
    await waitFor(() => lsp.statuses().find((s) => s.id === 'gopls')?.state === 'ready')
    const restricted = writeTree(tempDir(), { 'go.mod': 'module y\n', 'hotaru.json': JSON.stringify({ lsp: { gopls: { command: [process.execPath, SERVER, 'silent'] } } }) })
    const other = services.lsp.for(services.projects.openFolder(restricted))
    // Opening the trusted one started its server; the restricted one's config command never ran (gopls itself is not installed here).
    await services.lsp.load(project)
    expect(other.statuses().find((s) => s.id === 'gopls')?.state).not.toBe('ready')
    expect(other.statuses().find((s) => s.id === 'gopls')?.source).not.toBe('config')
  }, 60_000)

  it('a restricted project starts, as it opens, the server its first edit would use: one from the user\'s own config', async () => {
    const config = writeTree(tempDir(), { 'hotaru/hotaru.json': JSON.stringify({ lsp: { typescript: { command: [process.execPath, SERVER, 'silent'] } } }) })
    const services = testServices({ env: { ...process.env, XDG_CONFIG_HOME: config } })
    const restricted = writeTree(tempDir(), { 'package.json': '{}\n', 'src/app.ts': 'export const a = 1\n' })
    const lsp = services.lsp.for(services.projects.openFolder(restricted))
    await waitFor(() => lsp.statuses().find((s) => s.id === 'typescript')?.state === 'ready')
  }, 60_000)

  it('a project with no marker file but TypeScript sources in src/ starts the TypeScript server; a Markdown-only one starts none', async () => {
    const services = testServices()
    const server = { typescript: { command: [process.execPath, SERVER, 'silent'] } }
    const sources = writeTree(tempDir(), { 'src/app.ts': 'export const a = 1\n', 'hotaru.json': JSON.stringify({ lsp: server }) })
    const notes = writeTree(tempDir(), { 'README.md': '# notes\n', 'hotaru.json': JSON.stringify({ lsp: server }) })
    services.trust.trust(sources)
    services.trust.trust(notes)
    const withSources = services.lsp.for(services.projects.openFolder(sources))
    const withNotes = services.projects.openFolder(notes)
    await waitFor(() => withSources.statuses().find((s) => s.id === 'typescript')?.state === 'ready')
    await services.lsp.load(withNotes)
    expect(services.lsp.for(withNotes).statuses().find((s) => s.id === 'typescript')?.state).toBe('idle')
  }, 60_000)

  it("in hotaru run's mode a project opens with no server, and its first turn starts the server once its first request is out", async () => {
    const fake = await startFakeLlm({ turns: [{ text: 'Nothing to change.' }] })
    fakes.push(fake)
    const server = { typescript: { command: [process.execPath, SERVER, 'silent'] } }
    const root = writeTree(tempDir(), { 'src/app.ts': 'export const a = 1\n', 'hotaru.json': JSON.stringify({ lsp: server }) })
    const services = testServices({ env: fakeProviderEnv(fake, tempDir()), lsp: { startWithProject: 'first-turn' } })
    services.trust.trust(root)
    const project = services.projects.openFolder(root)
    const lsp = await services.lsp.load(project)
    const state = (): string | undefined => lsp.statuses().find((s) => s.id === 'typescript')?.state
    expect(state()).toBe('idle')
    const session = services.sessions.create({ projectId: project.id, agent: 'build', model: 'anthropic/claude-sonnet-4-5' })
    expect((await services.agents.prompt({ sessionId: session.id, text: 'look around' })).status).toBe('completed')
    expect(fake.requests).toHaveLength(1)
    await waitFor(() => state() === 'ready')
  }, 60_000)
})
