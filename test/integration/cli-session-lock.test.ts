import { spawn } from 'node:child_process'
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'
import { BIN, fakeProviderEnv, runHotaru, startServe, type CliResult } from '../support/cli'
import { tempDir, writeTree } from '../support/temp'
import { until } from '../support/until'
import { WsClient } from '../support/ws-client'

const servers: FakeLlm[] = []
const running: Array<ReturnType<typeof spawn>> = []
afterEach(async () => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  for (const s of servers.splice(0)) await s.close()
})

async function fake(turns: FakeTurn[]): Promise<FakeLlm> {
  const server = await startFakeLlm({ turns })
  servers.push(server)
  return server
}

const MODEL = 'anthropic/claude-sonnet-4-6'

/** A bash call that says it started, then waits until the test lets it go: a turn held open without timing. */
function heldTurn(project: string): FakeTurn {
  const command = `echo held > held.txt; until [ -f ${join(project, '.release')} ]; do sleep 0.05; done`
  return { toolCalls: [{ name: 'bash', args: { command, description: 'wait for the test' } }] }
}

/** `hotaru run` in the background, with its outcome when it exits. */
function startRun(args: string[], env: NodeJS.ProcessEnv): { child: ReturnType<typeof spawn>; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  running.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
  const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
  return { child, done }
}

describe('one session, one writer, across processes', () => {
  it('a second run on a busy session is refused (exit 5) and a restore waits for no turn: both say who holds it', async () => {
    const project = realpathSync(writeTree(tempDir(), { 'a.txt': 'one\n' }))
    const dataDir = realpathSync(tempDir())
    const server = await fake([{ text: 'Hello.' }, heldTurn(project), { text: 'Done waiting.' }, { text: 'Second answer.' }])
    const env = fakeProviderEnv(server, dataDir)
    const first = await runHotaru(['run', '--dir', project, '--model', MODEL, 'hi'], env)
    expect(first.code).toBe(0)
    const session = /session (ses_\w+)/.exec(first.stderr)?.[1] as string

    const held = startRun(['run', '--dir', project, '--model', MODEL, '--yes', '--continue', 'wait'], env)
    await until(() => existsSync(join(project, 'held.txt')), 'the first turn runs its command')

    const second = await runHotaru(['run', '--dir', project, '--model', MODEL, '--continue', 'me too'], env)
    expect(second.code).toBe(5)
    expect(second.stderr).toContain(`session ${session} is busy: a turn is running in it in another process (hotaru run, pid ${held.child.pid}`)
    expect(second.stderr).toContain('wait for that turn to end or stop it')

    const list = await runHotaru(['checkpoints', 'list', '--dir', project, '--json'], env)
    const [checkpoint] = JSON.parse(list.stdout) as Array<{ id: string }>
    const restore = await runHotaru(['checkpoints', 'restore', checkpoint?.id as string, '--dir', project, '--yes'], env)
    expect(restore.code).toBe(1)
    expect(restore.stderr).toContain(`cannot restore files now: a turn is running in session ${session} of this project (hotaru run, pid ${held.child.pid}`)
    // The file the running turn wrote is still there: the restore touched nothing.
    expect(readFileSync(join(project, 'held.txt'), 'utf8')).toBe('held\n')

    // The same from the browser UI: hotaru serve refuses the restore while the CLI's turn runs.
    const served = await startServe(['--port', '0', '--dir', project], env)
    try {
      const url = new URL(served.url)
      const client = await WsClient.connect(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`, { Origin: url.origin })
      const fromUi = (await client.call('checkpoint.restore', { checkpointId: checkpoint?.id as string, mode: 'code' })) as { ok: boolean; error?: { data: { message: string } } }
      client.close()
      expect(fromUi.ok).toBe(false)
      expect(fromUi.error?.data.message).toContain(`cannot restore files now: a turn is running in session ${session} of this project (hotaru run, pid ${held.child.pid}`)
    } finally {
      await served.stop()
    }
    expect(readFileSync(join(project, 'held.txt'), 'utf8')).toBe('held\n')

    writeFileSync(join(project, '.release'), '')
    const firstDone = await held.done
    expect(firstDone.code).toBe(0)
    // The refused run sent nothing: the model saw the held turn's two requests and then this one.
    const again = await runHotaru(['run', '--dir', project, '--model', MODEL, '--continue', 'me too'], env)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('Second answer.')
    const requests = server.requests.filter((r) => r.api !== 'control')
    expect(requests).toHaveLength(4)
  })

  it('a run killed with SIGKILL mid-turn does not lock its session: the next run continues it', async () => {
    const project = realpathSync(writeTree(tempDir(), { 'a.txt': 'one\n' }))
    const dataDir = realpathSync(tempDir())
    const server = await fake([{ text: 'Hello.' }, heldTurn(project), { text: 'After the crash.' }])
    const env = fakeProviderEnv(server, dataDir)
    expect((await runHotaru(['run', '--dir', project, '--model', MODEL, 'hi'], env)).code).toBe(0)
    const held = startRun(['run', '--dir', project, '--model', MODEL, '--yes', '--continue', 'wait'], env)
    await until(() => existsSync(join(project, 'held.txt')), 'the turn runs its command')
    held.child.kill('SIGKILL')
    expect((await held.done).code).toBe(null)
    const next = await runHotaru(['run', '--dir', project, '--model', MODEL, '--continue', 'go on'], env)
    expect(next.stderr).not.toContain('is busy')
    expect(next.code).toBe(0)
    expect(next.stdout).toContain('After the crash.')
    writeFileSync(join(project, '.release'), '')
  })
})
