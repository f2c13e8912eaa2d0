import { execFileSync } from 'node:child_process'
import { mkdirSync, realpathSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm'
import { fakeProviderEnv, startServe, type Served } from '../support/cli'
import { tempDir } from '../support/temp'
import { WsClient, type Frame } from '../support/ws-client'

const running: Served[] = []
const servers: FakeLlm[] = []
afterEach(async () => {
  for (const served of running.splice(0)) if (served.child.exitCode === null) served.child.kill('SIGKILL')
  for (const s of servers.splice(0)) await s.close()
})

/** A project with what real trees hold and tools trip over: a FIFO, a 50 GB sparse file, symlink loops. */
function hostileProject(): string {
  const root = realpathSync(tempDir())
  execFileSync('git', ['init', '-q', root])
  writeFileSync(join(root, 'a.txt'), 'hello\n')
  execFileSync('mkfifo', [join(root, 'pipe')])
  writeFileSync(join(root, 'sparse.bin'), '')
  truncateSync(join(root, 'sparse.bin'), 50 * 1024 ** 3)
  symlinkSync('loop2', join(root, 'loop1'))
  symlinkSync('loop1', join(root, 'loop2'))
  symlinkSync('.', join(root, 'self'))
  mkdirSync(join(root, 'd'))
  symlinkSync('../d', join(root, 'd', 'up'))
  return root
}

const toolStarted = (f: Frame): boolean => f.type === 'event' && f.channel === 'session:part' && JSON.stringify(f.payload).includes('"status":"running"')

describe.runIf(process.platform === 'linux')('hotaru serve and SIGTERM', () => {
  it('exits within 10 s after a turn touched a FIFO, a sparse file and symlink loops, and mid-command', async () => {
    const project = hostileProject()
    const fake = await startFakeLlm()
    servers.push(fake)
    fake.enqueue(
      { toolCalls: [{ name: 'grep', args: { pattern: 'hello' } }, { name: 'glob', args: { pattern: '**/*' } }, { name: 'read', args: { filePath: 'sparse.bin' } }] },
      { toolCalls: [{ name: 'read', args: { filePath: 'pipe' } }] },
      // Still running when SIGTERM comes: a command blocked on the FIFO, and a child of its own that ignores SIGTERM.
      { toolCalls: [{ name: 'bash', args: { command: "(trap '' TERM; sleep 3171) & cat pipe", description: 'wait on the pipe' } }] },
      { text: 'never reached' },
    )
    const dataDir = realpathSync(tempDir())
    const served = await startServe(['--port', '0', '--dir', project], fakeProviderEnv(fake, dataDir, { HOTARU_CONFIG_CONTENT: JSON.stringify({ permission: { bash: 'allow' } }) }))
    running.push(served)
    const url = new URL(served.url)
    const client = await WsClient.connect(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`, { Origin: url.origin })
    const project_ = (await client.call('project.open', { path: project })).value as { id: string }
    const session = (await client.call('session.create', { projectId: project_.id })).value as { id: string }
    expect((await client.call('agent.prompt', { sessionId: session.id, text: 'look around' })).ok).toBe(true)
    await client.next((f) => toolStarted(f) && JSON.stringify(f.payload).includes('wait on the pipe'), 60_000)
    const started = Date.now()
    const code = await served.stop()
    const seconds = (Date.now() - started) / 1000
    client.close()
    expect(seconds).toBeLessThan(10)
    expect(code).not.toBeNull()
    const left = execFileSync('sh', ['-c', `pgrep -f "^sleep 3171" || true`], { encoding: 'utf8' })
    expect(left.trim()).toBe('')
  }, 120_000)
})
