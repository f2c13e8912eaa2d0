import Database from 'better-sqlite3'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'
import { BIN, fakeProviderEnv, runHotaru } from '../support/cli'
import { fixtureServer } from './mcp/helpers'
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

function envFor(server: FakeLlm, dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return fakeProviderEnv(server, dataDir, extra)
}

const hotaru = runHotaru

/** Each model family edits the way it was trained to: string replacement for Claude, patch envelopes for GPT. */
const EDITS = {
  'anthropic/claude-sonnet-4-6': {
    edit: { name: 'edit', args: { filePath: 'notes.txt', oldString: 'draft', newString: 'final' } },
    absent: ['apply_patch', 'todoread', 'question'],
  },
  'openai/gpt-4.1': {
    edit: { name: 'apply_patch', args: { patchText: '*** Begin Patch\n*** Update File: notes.txt\n@@\n-a draft note\n+a final note\n*** End Patch' } },
    absent: ['edit', 'multiedit', 'todoread', 'question'],
  },
}

for (const [model, { edit, absent }] of Object.entries(EDITS)) {
  describe(`hotaru run over ${model}`, () => {
    it('completes a multi-turn tool-using task with --yes, offered only its own edit tools', async () => {
      const server = await fake([
        { text: 'Let me read it.', toolCalls: [{ name: 'read', args: { filePath: 'notes.txt' } }] },
        { toolCalls: [edit] },
        { toolCalls: [{ name: 'bash', args: { command: 'cat notes.txt > copy.txt', description: 'copy the notes' } }] },
        { text: 'Updated notes.txt and copied it.' },
      ])
      const dataDir = tempDir()
      const project = writeTree(tempDir(), { 'notes.txt': 'a draft note\n' })
      const result = await hotaru(['run', '--dir', project, '--model', model, '--yes', 'finalize', 'the', 'notes'], envFor(server, dataDir))
      expect(result.stderr).not.toMatch(/Error|failed/i)
      expect(result.code).toBe(0)
      expect(result.stdout).toContain('Let me read it.')
      expect(result.stdout).toContain('Updated notes.txt and copied it.')
      expect(result.stderr).toContain('• read')
      expect(result.stderr).toContain('• bash')
      expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('a final note\n')
      expect(readFileSync(join(project, 'copy.txt'), 'utf8')).toBe('a final note\n')
      const api = server.requests.filter((r) => r.api !== 'control')
      expect(api.slice(0, 4).every((r) => r.status === 200)).toBe(true)
      // One edit family, no todo reader, and no question tool when no one is at a terminal to answer.
      const body = api[0]?.body as { tools: Array<{ name?: string; function?: { name: string } }> }
      const names = body.tools.map((t) => t.name ?? t.function?.name)
      expect(names).toContain(edit.name)
      expect(names).toContain('write')
      for (const name of absent) expect(names).not.toContain(name)
    })
  })
}

describe('hotaru run', () => {
  it('--format json prints one JSON event per line, ending with done', async () => {
    const server = await fake([{ text: 'Hi there.' }])
    const dataDir = tempDir()
    const project = tempDir()
    const result = await hotaru(['run', '--dir', project, '--format', 'json', 'hello'], envFor(server, dataDir))
    expect(result.code).toBe(0)
    const events = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; [k: string]: unknown })
    expect(events[0]?.type).toBe('session')
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed' })
    const deltas = events.filter((e) => e.type === 'session:delta').map((e) => e.delta).join('')
    expect(deltas).toBe('Hi there.')
    const seqs = events.filter((e) => typeof e.seq === 'number').map((e) => e.seq as number)
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
  })

  it('without a TTY or --yes rejects asks, tells the model and stderr', async () => {
    const server = await fake([
      { toolCalls: [{ name: 'bash', args: { command: 'touch made.txt', description: 'make a file' } }] },
      { text: 'Could not run it.' },
    ])
    const project = tempDir()
    const result = await hotaru(['run', '--dir', project, 'make a file'], envFor(server, tempDir()))
    expect(result.code).toBe(0)
    expect(existsSync(join(project, 'made.txt'))).toBe(false)
    expect(result.stderr).toMatch(/permission needed for bash/)
    expect(JSON.stringify(server.requests[1]?.body)).toMatch(/No one can answer permission requests/)
  })

  it('continues a session and lists, shows and exports it', async () => {
    const server = await fake([{ text: 'First answer.' }, { text: 'Second answer.' }])
    const dataDir = tempDir()
    const project = tempDir()
    const env = envFor(server, dataDir)
    expect((await hotaru(['run', '--dir', project, 'first question'], env)).code).toBe(0)
    expect((await hotaru(['run', '--dir', project, '--continue', 'second question'], env)).code).toBe(0)
    const list = await hotaru(['sessions', 'list', '--dir', project, '--json'], env)
    const sessions = JSON.parse(list.stdout) as { id: string; title: string }[]
    expect(sessions).toHaveLength(1)
    const id = sessions[0]?.id as string
    const shown = await hotaru(['sessions', 'show', id.slice(0, 20)], env)
    expect(shown.stdout).toContain('First answer.')
    expect(shown.stdout).toContain('Second answer.')
    const exported = JSON.parse((await hotaru(['sessions', 'export', id], env)).stdout) as { messages: unknown[] }
    expect(exported.messages).toHaveLength(4)
    // The second request carried the whole conversation.
    expect(JSON.stringify(server.requests[1]?.body)).toContain('First answer.')
  })

  it('asks the configured small model for a title after the first turn', async () => {
    const server = await fake([{ text: 'Sure.' }, { text: '"Fix the login bug."' }])
    const dataDir = tempDir()
    const project = tempDir()
    const env = envFor(server, dataDir, { HOTARU_CONFIG_CONTENT: JSON.stringify({ smallModel: 'anthropic/claude-haiku-4-5' }) })
    expect((await hotaru(['run', '--dir', project, 'the login is broken, please fix it'], env)).code).toBe(0)
    const sessions = JSON.parse((await hotaru(['sessions', 'list', '--dir', project, '--json'], env)).stdout) as { title: string }[]
    expect(sessions[0]?.title).toBe('Fix the login bug')
    expect((server.requests[1]?.body as { model: string }).model).toBe('claude-haiku-4-5')
  })

  // Three CLI runs (trust, run, mcp list): more than the default budget on a loaded machine.
  it('calls a tool of a real MCP server through the permission flow and lists the server health', { timeout: 60_000 }, async () => {
    const server = await fake([
      { toolCalls: [{ name: 'fx__add', args: { a: 2, b: 40 } }] },
      { text: 'The sum is 42.' },
    ])
    const project = writeTree(tempDir(), {
      'hotaru.json': JSON.stringify({ mcp: { fx: fixtureServer('ok') } }),
    })
    const env = envFor(server, tempDir())
    expect((await hotaru(['trust', '--dir', project], env)).code).toBe(0)
    const result = await hotaru(['run', '--dir', project, '--yes', 'add 2 and 40'], env)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('The sum is 42.')
    const tools = (server.requests[0]?.body as { tools: { name: string }[] }).tools.map((t) => t.name)
    expect(tools).toContain('fx__add')
    expect(JSON.stringify(server.requests[1]?.body)).toContain('42')
    const mcp = await hotaru(['mcp', 'list', '--dir', project, '--json'], env)
    expect(JSON.parse(mcp.stdout)).toMatchObject([{ name: 'fx', state: 'connected' }])
  })

  it('names the config file and JSON path of an invalid config', async () => {
    const server = await fake([])
    const project = writeTree(tempDir(), { 'hotaru.json': JSON.stringify({ agent: { build: { maxTurns: 'many' } } }) })
    const result = await hotaru(['run', '--dir', project, 'hi'], envFor(server, tempDir()))
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(join(project, 'hotaru.json'))
    expect(result.stderr).toContain('agent.build.maxTurns')
    expect(server.requests).toHaveLength(0)
  })

  it('exits non-zero with the provider error on stderr', async () => {
    const server = await fake([{ fault: { type: 'http', status: 400, message: 'bad request from test' } }])
    const result = await hotaru(['run', '--dir', tempDir(), 'hi'], envFor(server, tempDir()))
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/hotaru run: .*bad request/i)
  })

  it('a kill -9 mid-stream leaves a session that reopens intact', async () => {
    const server = await fake([{ text: Array.from({ length: 200 }, (_, i) => `word${i} `), dripMs: 20 }])
    const dataDir = tempDir()
    const project = tempDir()
    const child = spawn(process.execPath, [BIN, 'run', '--dir', project, 'stream a lot'], { env: envFor(server, dataDir), stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        if (out.includes('word40')) resolve()
      })
    })
    child.kill('SIGKILL')
    await new Promise((r) => child.once('close', r))
    const db = new Database(join(dataDir, 'hotaru.db'))
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
    const list = spawnSync(process.execPath, [BIN, 'sessions', 'list', '--dir', project, '--json'], { env: envFor(server, dataDir), encoding: 'utf8' })
    const [session] = JSON.parse(list.stdout) as { id: string }[]
    const exported = JSON.parse(
      spawnSync(process.execPath, [BIN, 'sessions', 'export', session?.id ?? ''], { env: envFor(server, dataDir), encoding: 'utf8' }).stdout,
    ) as { messages: { parts: { type: string; text?: string }[] }[] }
    const text = exported.messages[1]?.parts.find((p) => p.type === 'text')?.text ?? ''
    // Everything streamed up to ~100 ms before the kill is there.
    expect(text).toContain('word0 word1')
    // And the next turn on that session sends a valid transcript.
    server.enqueue({ text: 'Resumed.' })
    const resumed = await hotaru(['run', '--dir', project, '--session', session?.id ?? '', 'go on'], envFor(server, dataDir))
    expect(resumed.code).toBe(0)
    expect(resumed.stdout).toContain('Resumed.')
  })

  it('exits as soon as the answer is out, with the answer, the checkpoints and an intact database on disk', async () => {
    // bash loads the shell grammar (WebAssembly) and takes a step checkpoint: the work a run leaves behind at exit.
    const server = await fake([
      { toolCalls: [{ name: 'bash', args: { command: 'echo done > out.txt', description: 'write a file' } }] },
      { text: 'Wrote out.txt, the last words.' },
    ])
    const dataDir = tempDir()
    const project = tempDir()
    const result = await hotaru(['run', '--dir', project, '--yes', 'write a file'], envFor(server, dataDir))
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('the last words.')
    const db = new Database(join(dataDir, 'hotaru.db'), { readonly: true })
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      const texts = db.prepare('SELECT data FROM parts').all() as { data: string }[]
      expect(texts.some((row) => row.data.includes('the last words.'))).toBe(true)
      const triggers = (db.prepare('SELECT trigger FROM checkpoints').all() as { trigger: string }[]).map((row) => row.trigger)
      expect(triggers).toEqual(expect.arrayContaining(['message', 'step']))
    } finally {
      db.close()
    }
  })

  it('rejects a bad --format and a missing message', async () => {
    const env = { ...process.env, HOTARU_DATA_DIR: tempDir() }
    expect((await hotaru(['run', '--format', 'xml', 'hi'], env)).stderr).toContain('--format must be text or json')
    expect((await hotaru(['run'], env)).code).toBe(2)
  })
})

export { writeFileSync }

describe('hotaru run in a terminal', () => {
  it('asks permission at the prompt and runs the command after "once"', async () => {
    const { spawn: spawnPty } = await import('@lydell/node-pty')
    const server = await fake([
      { toolCalls: [{ name: 'bash', args: { command: 'touch approved.txt', description: 'make a file' } }] },
      { text: 'Made it.' },
    ])
    const project = tempDir()
    const pty = spawnPty(process.execPath, [BIN, 'run', '--dir', project, 'make a file'], {
      cols: 120,
      rows: 30,
      env: envFor(server, tempDir()) as Record<string, string>,
    })
    let screen = ''
    const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)))
    let answered = false
    pty.onData((data) => {
      screen += data
      if (!answered && screen.includes('allow?')) {
        answered = true
        pty.write('o\r')
      }
    })
    expect(await exited).toBe(0)
    expect(screen).toContain('touch approved.txt')
    expect(screen).toContain('Made it.')
    expect(existsSync(join(project, 'approved.txt'))).toBe(true)
  })
})
