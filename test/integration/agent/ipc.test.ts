import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closeIpcHarnesses, ipcHarness } from '../../support/ipc-harness'
import { tempDir, writeTree } from '../../support/temp'

afterEach(closeIpcHarnesses)

describe('session, agent and permission over IPC', () => {
  it('streams a turn as events, asks permission for bash, and finishes after "once"', async () => {
    const { fake, call, next, events } = await ipcHarness()
    const root = writeTree(tempDir(), { 'a.txt': 'x' })
    const project = await call<{ id: string }>('project.open', { path: root })
    const session = await call<{ id: string; model: string }>('session.create', { projectId: project.id })
    expect(session.model).toBe('anthropic/claude-sonnet-5-5')
    fake.enqueue(
      { text: 'Running it.', toolCalls: [{ name: 'bash', args: { command: 'touch made.txt', description: 'make a file' } }] },
      { text: 'Made it.' },
    )
    const sent = await call<{ queued: boolean; messageId: string }>('agent.prompt', { sessionId: session.id, text: 'make a file' })
    expect(sent).toEqual({ queued: false, messageId: expect.stringMatching(/^msg_/) })
    const asked = await next('permission:asked')
    const request = asked.request as { id: string; permission: string; patterns: string[]; always: string[] }
    expect(request.permission).toBe('bash')
    expect(request.patterns).toEqual(['touch made.txt'])
    expect(request.always.length).toBeGreaterThan(0)
    expect(await call('permission.pending', { projectId: project.id })).toHaveLength(1)
    // A page opened now learns which sessions are mid-turn; another project's list is its own.
    expect(await call('session.running', { projectId: project.id })).toEqual([{ sessionId: session.id, status: { type: 'busy' } }])
    const other = await call<{ id: string }>('project.open', { path: tempDir() })
    expect(await call('session.running', { projectId: other.id })).toEqual([])
    await call('permission.reply', { id: request.id, reply: 'once' })
    const ended = await next('agent:turnEnded')
    expect(ended.status).toBe('completed')
    expect(await call('session.running', { projectId: project.id })).toEqual([])
    expect(existsSync(join(root, 'made.txt'))).toBe(true)

    const seqs = events.filter((e) => e.channel.startsWith('session:') && e.channel !== 'session:status').map((e) => (e.envelope.payload as { seq: number }).seq)
    expect(seqs).toEqual(seqs.map((_, i) => i + 1))
    const deltas = events.filter((e) => e.channel === 'session:delta').map((e) => (e.envelope.payload as { delta: string }).delta)
    expect(deltas.join('')).toBe('Running it.Made it.')
    const messages = await call<{ info: { role: string } }[]>('session.messages', { sessionId: session.id })
    expect(messages.map((m) => m.info.role)).toEqual(['user', 'assistant', 'assistant'])
    const list = await call<{ title: string }[]>('session.list', { projectId: project.id })
    expect(list[0]?.title).toBe('make a file')
  })

  it('a rejection without feedback stops the turn; with feedback the model hears it', async () => {
    const { fake, call, next } = await ipcHarness()
    const root = tempDir()
    const project = await call<{ id: string }>('project.open', { path: root })
    const session = await call<{ id: string }>('session.create', { projectId: project.id })
    fake.enqueue({ toolCalls: [{ name: 'bash', args: { command: 'rm -rf build', description: 'clean' } }] }, { text: 'OK, I will not.' })
    await call('agent.prompt', { sessionId: session.id, text: 'clean up' })
    const first = (await next('permission:asked')).request as { id: string }
    await call('permission.reply', { id: first.id, reply: 'reject', feedback: 'keep the build folder' })
    expect((await next('agent:turnEnded')).status).toBe('completed')
    expect(JSON.stringify(fake.requests[1]?.body)).toContain('keep the build folder')

    fake.enqueue({ toolCalls: [{ name: 'bash', args: { command: 'rm -rf dist', description: 'clean' } }] })
    await call('agent.prompt', { sessionId: session.id, text: 'clean again' })
    const second = (await next('permission:asked', (p) => (p.request as { id: string }).id !== first.id)).request as { id: string }
    await call('permission.reply', { id: second.id, reply: 'reject' })
    expect((await next('agent:turnEnded', (p) => p.status === 'rejected')).status).toBe('rejected')
    expect(fake.requests).toHaveLength(3)
  })

  it('stop aborts a running turn and a queued prompt runs after it', async () => {
    const { fake, call, next } = await ipcHarness()
    const project = await call<{ id: string }>('project.open', { path: tempDir() })
    const session = await call<{ id: string }>('session.create', { projectId: project.id })
    fake.enqueue({ text: Array.from({ length: 100 }, () => 'slow '), dripMs: 30 }, { text: 'Second.' })
    await call('agent.prompt', { sessionId: session.id, text: 'first' })
    await next('session:delta')
    // A queued prompt answers when its message lands, with that message's id.
    const second = call<{ queued: boolean; messageId: string }>('agent.prompt', { sessionId: session.id, text: 'second' })
    expect(await call('agent.abort', { sessionId: session.id })).toEqual({ aborted: true })
    await next('agent:turnEnded', (p) => p.status === 'aborted')
    const queued = await second
    expect(queued.queued).toBe(true)
    await next('agent:turnEnded', (p) => p.status === 'completed')
    const messages = await call<{ info: { id: string; role: string; error?: { name: string } } }[]>('session.messages', { sessionId: session.id })
    expect(messages.map((m) => m.info.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(messages[2]?.info.id).toBe(queued.messageId)
    expect(messages[1]?.info.error?.name).toBe('Aborted')
  })

  it("the memory tool writes the project memory, which reaches the next turn's message", async () => {
    const { fake, call, next } = await ipcHarness()
    const root = tempDir()
    const project = await call<{ id: string }>('project.open', { path: root })
    const session = await call<{ id: string }>('session.create', { projectId: project.id })
    fake.enqueue({ toolCalls: [{ name: 'memory', args: { action: 'append', content: 'Use pnpm, not npm.' } }] }, { text: 'Noted.' }, { text: 'Hi.' })
    await call('agent.prompt', { sessionId: session.id, text: 'remember pnpm' })
    const ask = (await next('permission:asked')).request as { id: string; permission: string }
    expect(ask.permission).toBe('edit')
    await call('permission.reply', { id: ask.id, reply: 'once' })
    await next('agent:turnEnded')
    expect(readFileSync(join(root, '.hotaru/memory.md'), 'utf8')).toContain('Use pnpm, not npm.')
    await call('agent.prompt', { sessionId: session.id, text: 'hi' })
    await next('agent:turnEnded', (p) => p.status === 'completed' && fake.requests.length === 3)
    // The memory changed after the prompt was cached: the next turn's message brings it, the system prompt stays as it was.
    const body = fake.requests[2]?.body as { system: unknown; messages: Array<{ content: unknown }> }
    expect(JSON.stringify(body.messages.at(-1)?.content)).toContain('Use pnpm, not npm.')
    expect(JSON.stringify(body.system)).toBe(JSON.stringify((fake.requests[0]?.body as { system: unknown }).system))
  })
})
