import { execFileSync } from 'node:child_process'
import { renameSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BusEvent } from '../../src/main/core/bus/bus'
import { busEvents } from '../../src/main/core/bus/event-check'
import { findChromium } from '../../src/main/core/preview/chromium'
import { closeIpcHarnesses, ipcHarness } from '../support/ipc-harness'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'
import { fixtureServer } from './mcp/helpers'

afterEach(closeIpcHarnesses)

const LSP_FIXTURE = join(import.meta.dirname, '../fixtures/lsp-server/quiet-server.mjs')

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: 'ignore' })
}

describe('bus events', () => {
  it('every declared event is published, through real flows, with a payload its contract schema accepts', async () => {
    const { fake, services, call, next } = await ipcHarness()
    const published: BusEvent[] = []
    services.bus.subscribe((event) => published.push(event))
    const root = writeTree(tempDir(), {
      'a.q': 'first line\n',
      'src/hello.txt': 'hello world\n',
      // The preview serves it; the page logs an error to its console.
      'index.html': '<!doctype html><title>walk</title><script>console.error("from the page")</script>\n',
      'hotaru.json': JSON.stringify({
        // Its tool list breaks once a tool is added: the failed refresh is an MCP warning.
        mcp: { fixture: fixtureServer('ok', {}, ['--failing-refresh']) },
        lsp: { quiet: { command: [process.execPath, LSP_FIXTURE, 'report'], extensions: ['.q'] } },
        preview: { chromium: findChromium({ env: process.env }) },
      }),
    })
    git(root, 'init', '-q')
    git(root, 'add', '.')
    git(root, 'commit', '-q', '-m', 'start')

    // The folder is not trusted yet: its MCP server is withheld, and a notice says so.
    const project = await call<{ id: string }>('project.open', { path: root })
    const projectId = project.id
    await next('project:notice')
    await call('trust.decide', { projectId, trusted: true })
    await next('trust:changed')
    await next('mcp:tools', (p) => (p.tools as string[]).length > 0, 30_000)

    // Files, git and the watcher.
    await call('fs.list', { projectId, path: '' })
    await call('fs.gitStatus', { projectId })
    // The watch is ready once it has every folder in view: its first batch marks the listings stale.
    await next('fs:changed', (p) => (p.invalidated as string[]).includes(''))
    await call('fs.write', { projectId, path: 'notes.txt', content: 'new\n' })
    await next('fs:changed', (p) => (p.changes as { path: string }[]).some((c) => c.path === 'notes.txt'))
    await next('fs:gitStatus')

    // A terminal, find in files, a language server.
    const terminal = await call<{ id: string }>('pty.create', { projectId, cols: 80, rows: 24 })
    await call('pty.write', { projectId, id: terminal.id, data: 'echo from-the-terminal\nexit\n' })
    await next('pty:exit', (p) => p.id === terminal.id)
    await call('search.text', { projectId, searchId: 'walk', query: { query: 'hello' } })
    await next('search:done', (p) => p.searchId === 'walk')
    await call('lsp.open', { projectId, path: 'a.q' })
    await next('lsp:diagnostics', (p) => (p.diagnostics as unknown[]).length > 0, 30_000)

    // The preview: the folder's index.html served, opened in the agent's browser, whose console reports the page's error.
    await call('preview.start', { projectId })
    await next('preview:status', (p) => p.state === 'ready', 30_000)
    await services.previews.for(services.projects.get(projectId)).driver()
    await next('preview:console', (p) => JSON.stringify(p.entry).includes('from the page'), 30_000)
    await call('preview.stop', { projectId })

    // A turn that plans, asks, runs a background command and writes a file; every ask is answered.
    const replies: Promise<unknown>[] = []
    const offAsks = services.bus.subscribe((event) => {
      if (event.channel === 'permission:asked') replies.push(call('permission.reply', { id: event.envelope.payload.request.id, reply: 'once' }))
      if (event.channel === 'question:asked') replies.push(call('question.answer', { id: event.envelope.payload.question.id, answers: [['Yes']] }))
    })
    const session = await call<{ id: string }>('session.create', { projectId })
    fake.enqueue(
      {
        text: 'On it.',
        toolCalls: [
          { name: 'todowrite', args: { todos: [{ content: 'write notes', status: 'in_progress' }] } },
          { name: 'question', args: { questions: [{ question: 'Go ahead?', options: [{ label: 'Yes' }, { label: 'No' }] }] } },
          { name: 'bash', args: { command: 'echo started', description: 'start a job', background: true } },
          { name: 'write', args: { filePath: 'out.txt', content: 'done\n' } },
          { name: 'fixture__add_tool', args: {} },
        ],
      },
      { text: 'Done.' },
    )
    await call('agent.prompt', { sessionId: session.id, text: 'do the work' })
    expect(await next('agent:turnEnded', (p) => p.sessionId === session.id, 30_000)).toMatchObject({ status: 'completed' })
    await next('process:changed', (p) => p.status === 'exited')
    await next('mcp:warning', (p) => (p.message as string).includes('could not refresh its tools'))
    offAsks.dispose()
    await Promise.all(replies)

    // A second turn whose stream breaks off after some text: that attempt's part is removed and it is retried.
    fake.enqueue({ text: ['Half ', 'an ', 'answer'], fault: { type: 'drop', afterEvents: 5 } }, { text: 'Whole answer.' })
    const second = await call<{ messageId: string }>('agent.prompt', { sessionId: session.id, text: 'again' })
    await next('agent:turnEnded', (p) => p.sessionId === session.id && published.filter((e) => e.channel === 'agent:turnEnded').length === 2, 30_000)

    // Undo the second message in the conversation, rename, delete, close.
    const checkpoints = await call<{ id: string; messageId: string | null }[]>('checkpoint.list', { projectId, sessionId: session.id })
    const beforeSecond = checkpoints.find((c) => c.messageId === second.messageId)
    if (!beforeSecond) throw new Error('no checkpoint before the second message')
    await call('checkpoint.restore', { checkpointId: beforeSecond.id, mode: 'conversation' })
    await call('session.rename', { sessionId: session.id, title: 'walked' })
    await call('session.delete', { sessionId: session.id })
    // A worktree of the project, made and removed.
    await call('worktree.create', { projectId, name: 'walk' })
    await next('worktree:changed', (p) => p.name === 'walk' && p.worktree !== null)
    await call('worktree.remove', { projectId, name: 'walk', force: true })
    await next('worktree:changed', (p) => p.name === 'walk' && p.worktree === null)
    // The folder moved away and back: its tab is missing, then present again.
    renameSync(root, `${root}-moved`)
    await next('project:presence', (p) => p.state === 'missing', 20_000)
    renameSync(`${root}-moved`, root)
    await next('project:presence', (p) => p.state === 'present', 20_000)
    await call('project.close', { projectId })
    await until(() => published.some((e) => e.channel === 'project:closed'), 'project:closed')

    // Each payload was checked at publish time (a mismatch throws there); check what listeners got, too.
    for (const event of published) {
      const result = busEvents.get(event.channel)?.safeParse(event.envelope.payload)
      expect(result?.success, `${event.channel}: ${JSON.stringify(result?.error?.issues)}`).toBe(true)
    }
    const seen = new Set(published.map((e) => e.channel))
    // Published by the desktop app's own page view (src/main/electron/preview-views.ts), which needs Electron;
    // in serve the page reports its navigation to the pane directly.
    const desktopOnly = new Set(['preview:navigated'])
    expect([...busEvents.keys()].filter((channel) => !seen.has(channel) && !desktopOnly.has(channel))).toEqual([])
  }, 120_000)
})
