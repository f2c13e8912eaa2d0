import { chmodSync, existsSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'
import { BIN, fakeProviderEnv, runHotaru } from '../support/cli'
import { fillDisk, mountSmallDisk, smallDiskUnavailable } from '../support/small-disk'
import { tempDir, writeTree } from '../support/temp'
import { withoutPermissionBypass } from '../support/unprivileged'

const servers: FakeLlm[] = []
const unmounts: Array<() => void> = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
  for (const unmount of unmounts.splice(0)) unmount()
})

async function fake(turns: FakeTurn[]): Promise<FakeLlm> {
  const server = await startFakeLlm({ turns })
  servers.push(server)
  return server
}

const MODEL = 'anthropic/claude-sonnet-4-6'

describe('a project folder that vanishes during a turn', () => {
  it('is not recreated by the next write: the turn stops with the reason, exit 1', async () => {
    const parent = realpathSync(tempDir())
    const project = writeTree(join(parent, 'app'), { 'a.txt': 'one\n' })
    const server = await fake([
      { toolCalls: [{ name: 'bash', args: { command: 'cd .. && mv app app-moved', description: 'move the project away' } }] },
      { toolCalls: [{ name: 'write', args: { filePath: 'src/new.txt', content: 'hello\n' } }] },
      { text: 'Wrote it.' },
    ])
    const result = await runHotaru(['run', '--dir', project, '--model', MODEL, '--yes', 'go'], fakeProviderEnv(server, tempDir()))
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`The project folder ${project} no longer exists`)
    expect(existsSync(project)).toBe(false)
    expect(readdirSync(join(parent, 'app-moved'))).toEqual(['a.txt'])
    // The turn ended at the failed write: the model was not asked to go on as if it had worked.
    expect(server.requests.filter((r) => r.api !== 'control')).toHaveLength(2)
  })
})

describe.skipIf(smallDiskUnavailable() !== null)('checkpoints on a full disk (a real size-limited tmpfs)', () => {
  it('a checkpoint that cannot be taken is said on stderr and told to the model', async () => {
    const dataDir = realpathSync(tempDir())
    const snapshots = join(dataDir, 'snapshots')
    unmounts.push(mountSmallDisk(snapshots, '1m'))
    fillDisk(snapshots)
    const project = writeTree(tempDir(), { 'a.txt': 'one\n' })
    const server = await fake([
      { toolCalls: [{ name: 'read', args: { filePath: 'a.txt' } }] },
      // A command may change any file: it waits for the message's checkpoint, so its result has the outcome.
      { toolCalls: [{ name: 'bash', args: { command: 'echo two > a.txt', description: 'change a' } }] },
      { text: 'Changed it.' },
    ])
    const result = await runHotaru(['run', '--dir', project, '--model', MODEL, '--yes', 'change a'], fakeProviderEnv(server, dataDir))
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/warning: No restore point before this message: the checkpoint could not be taken \(.*(ENOSPC|no space left).*\)/i)
    expect(result.stderr).toContain(`The disk holding the data folder ${dataDir} is full`)
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('two\n')
    // The command's result, which the model read next, says the change has no restore point; the read's did not.
    const requests = server.requests.filter((r) => r.api !== 'control')
    expect(JSON.stringify(requests[1]?.body)).not.toContain('No restore point')
    expect(JSON.stringify(requests[2]?.body)).toContain('No restore point before this message')
    const list = await runHotaru(['checkpoints', 'list', '--dir', project], fakeProviderEnv(server, dataDir))
    expect(list.stdout).not.toMatch(/message\s+msg_/)
  })
})

describe('checkpoints name the files and folders they could not keep', () => {
  it('an unreadable file is "unreadable", not "too large"; an unreadable folder is listed', async () => {
    const dataDir = tempDir()
    const project = writeTree(tempDir(), { 'a.txt': 'one\n', 'secret.txt': 'x\n', 'locked/inside.txt': 'y\n' })
    const server = await fake([
      { toolCalls: [{ name: 'bash', args: { command: 'chmod 000 secret.txt locked', description: 'lock two paths' } }] },
      { toolCalls: [{ name: 'write', args: { filePath: 'new.txt', content: 'two\n' } }] },
      { text: 'Done.' },
    ])
    const env = fakeProviderEnv(server, dataDir)
    try {
      // Without root's permission bypass: the run meets chmod 000 as a user's own process does.
      const run = await runHotaru(['run', '--dir', project, '--model', MODEL, '--yes', 'go'], env, undefined, withoutPermissionBypass())
      expect(run.code).toBe(0)
      const list = await runHotaru(['checkpoints', 'list', '--dir', project], env)
      expect(list.stdout, list.stdout + run.stderr).toContain('  not kept: secret.txt (unreadable')
      expect(list.stdout, list.stdout + run.stderr).toContain('  not kept: locked/ (folder could not be listed')
      expect(list.stdout).not.toContain('too large')
    } finally {
      chmodSync(join(project, 'locked'), 0o755)
      chmodSync(join(project, 'secret.txt'), 0o644)
    }
  })
})

describe('the session database on a full or damaged disk', () => {
  it.skipIf(smallDiskUnavailable() !== null)('a full data disk still lists sessions, read-only, and says what to do', async () => {
    const dataDir = realpathSync(tempDir())
    unmounts.push(mountSmallDisk(dataDir, '4m'))
    const project = writeTree(tempDir(), { 'a.txt': 'one\n' })
    const server = await fake([{ text: 'Hello.' }])
    const env = fakeProviderEnv(server, dataDir)
    const first = await runHotaru(['run', '--dir', project, '--model', MODEL, 'hi'], env)
    expect(first.code).toBe(0)
    const session = /session (ses_\w+)/.exec(first.stderr)?.[1] as string
    fillDisk(dataDir)
    const list = await runHotaru(['sessions', 'list', '--dir', project], env)
    expect(list.code).toBe(0)
    expect(list.stdout).toContain(session)
    expect(list.stderr).toContain(`warning: Cannot use the data folder ${dataDir}`)
    expect(list.stderr).toContain('Free space on that disk, or move the data folder to another disk with HOTARU_DATA_DIR')
    expect(list.stderr).toContain('sessions open read-only')
    // A turn cannot run there: it says why in the same words, not SQLite's "readonly database".
    const turn = await runHotaru(['run', '--dir', project, '--model', MODEL, '--continue', 'again'], env)
    expect(turn.code).toBe(1)
    expect(turn.stderr).not.toMatch(/readonly database/i)
    expect(turn.stderr).toContain('Free space on that disk, or move the data folder to another disk with HOTARU_DATA_DIR')
  })

  it('a damaged database is named with the way out and left as it is', async () => {
    const dataDir = realpathSync(tempDir())
    const file = join(dataDir, 'hotaru.db')
    const garbage = Buffer.alloc(8192, 'not a database at all ')
    writeFileSync(file, garbage)
    const list = await runHotaru(['sessions', 'list', '--dir', realpathSync(tempDir())], fakeProviderEnv({ anthropicBaseURL: 'http://127.0.0.1:9', openaiBaseURL: 'http://127.0.0.1:9' }, dataDir))
    expect(list.code).toBe(1)
    expect(list.stderr).toContain(`The session database ${file} is damaged (file is not a database)`)
    expect(list.stderr).toContain(`move it aside (for example to ${file}.damaged-`)
    expect(readFileSync(file).equals(garbage)).toBe(true)
  })
})

const strace = ['/usr/bin/strace', '/usr/local/bin/strace'].find((path) => existsSync(path))

describe.runIf(process.platform === 'linux' && strace !== undefined)('a CLI command and the processes of others', () => {
  it('hotaru sessions list opens no process environment on the machine', async () => {
    const dataDir = realpathSync(tempDir())
    const trace = join(tempDir(), 'trace')
    const list = await runHotaru(
      ['sessions', 'list', '--dir', realpathSync(tempDir())],
      fakeProviderEnv({ anthropicBaseURL: 'http://127.0.0.1:9', openaiBaseURL: 'http://127.0.0.1:9' }, dataDir),
      undefined,
      [strace as string, '-f', '-e', 'trace=openat', '-o', trace],
    )
    expect(list.code).toBe(0)
    const opened = readFileSync(trace, 'utf8')
    expect(opened).toContain('hotaru.db')
    expect(opened.split('\n').filter((line) => /\/proc\/\d+\/environ/.test(line))).toEqual([])
  })
})

describe('a damaged database at a terminal', () => {
  it('is moved aside with a timestamp only after the user says yes, and the command goes on with an empty one', async () => {
    const { spawn: spawnPty } = await import('@lydell/node-pty')
    const dataDir = realpathSync(tempDir())
    const file = join(dataDir, 'hotaru.db')
    const garbage = Buffer.alloc(8192, 'not a database at all ')
    writeFileSync(file, garbage)
    const env = fakeProviderEnv({ anthropicBaseURL: 'http://127.0.0.1:9', openaiBaseURL: 'http://127.0.0.1:9' }, dataDir)
    const ask = async (answer: string): Promise<{ code: number; screen: string }> => {
      const pty = spawnPty(process.execPath, [BIN, 'sessions', 'list', '--dir', realpathSync(tempDir())], { cols: 200, rows: 40, env: env as Record<string, string> })
      let screen = ''
      let answered = false
      const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)))
      pty.onData((data) => {
        screen += data
        if (!answered && screen.includes('[y/N]')) {
          answered = true
          pty.write(`${answer}\r`)
        }
      })
      return { code: await exited, screen }
    }
    const no = await ask('n')
    expect(no.code).toBe(1)
    expect(no.screen).toContain(`The session database ${file} is damaged`)
    expect(no.screen).toContain('the damaged database was left as it is')
    expect(readFileSync(file).equals(garbage)).toBe(true)

    const yes = await ask('y')
    expect(yes.code).toBe(0)
    const moved = readdirSync(dataDir).filter((name) => /^hotaru\.db\.damaged-\d{4}-\d\d-\d\dT[\d-]+Z$/.test(name))
    expect(moved).toHaveLength(1)
    expect(yes.screen.replace(/\r?\n/g, '')).toContain(`Moved it to ${join(dataDir, moved[0] as string)}`)
    expect(readFileSync(join(dataDir, moved[0] as string)).equals(garbage)).toBe(true)
    expect(yes.screen).toContain('No sessions')
  })
})

describe.skipIf(smallDiskUnavailable() !== null)('the data disk fills up during a turn', () => {
  it('the turn stops with the data folder named and what to do, exit 1', async () => {
    const dataDir = realpathSync(tempDir())
    unmounts.push(mountSmallDisk(dataDir, '8m'))
    const project = writeTree(tempDir(), { 'a.txt': 'one\n' })
    const filler = join(dataDir, 'filler')
    const server = await fake([
      { toolCalls: [{ name: 'bash', args: { command: `dd if=/dev/zero of=${filler} bs=64k 2>/dev/null; head -c 100000 /dev/zero | tr '\\0' x; echo`, description: 'fill the disk' } }] },
      { text: 'Never stored.' },
    ])
    const env = fakeProviderEnv(server, dataDir, { HOTARU_CONFIG_CONTENT: JSON.stringify({ permission: { bash: 'allow', external_directory: 'allow' } }) })
    const result = await runHotaru(['run', '--dir', project, '--model', MODEL, '--yes', 'fill it'], env)
    // Not a crash from a timer that stores live output: the turn ends with the folder and the way out.
    expect(result.code).toBe(1)
    expect(result.stderr).not.toContain('SqliteError')
    expect(result.stderr).toContain(`hotaru run: Cannot use the data folder ${dataDir}: the disk holding it is full (database or disk is full) while saving the session.`)
    expect(result.stderr).toContain('Free space on that disk, or move the data folder to another disk with HOTARU_DATA_DIR')
    // What was stored before the disk filled is still there once space is freed.
    rmSync(filler)
    const list = await runHotaru(['sessions', 'list', '--dir', project], env)
    expect(list.code).toBe(0)
    expect(list.stdout).toContain('fill it')
  })
})
