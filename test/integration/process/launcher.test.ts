import { execFileSync } from 'node:child_process'
import { readFileSync, realpathSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ProcessLauncher } from '../../../src/main/core/process/launcher/launcher'
import { runFile, startProcess, useProcessLauncher, type StartedProcess } from '../../../src/main/core/process/spawn'
import { waitForExit } from '../../../src/main/core/process/exit'
import { spawnServerProcess } from '../../../src/main/core/lsp/process'
import { runHookProcess } from '../../../src/main/core/extensions/hook-process'
import { isAlive, signal } from '../../../src/main/core/process/tree'
import { tempDir } from '../../support/temp'
import { until } from '../../support/until'

const linux = process.platform === 'linux'
const leftovers: number[] = []
let launcher: ProcessLauncher
let lost: string[]

beforeEach(() => {
  lost = []
  launcher = new ProcessLauncher({ onLost: (reason) => lost.push(reason) })
  launcher.start()
  useProcessLauncher(launcher)
})

afterEach(async () => {
  useProcessLauncher(undefined)
  await launcher.dispose()
  for (const pid of leftovers.splice(0)) signal(pid, 'SIGKILL')
})

/** Fields of /proc/PID/stat after the command name: state, ppid, pgrp. */
function stat(pid: number): { ppid: number; pgrp: number } {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return { ppid: Number(fields[1]), pgrp: Number(fields[2]) }
}

function collect(child: StartedProcess): { out: () => string; err: () => string } {
  let out = ''
  let err = ''
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()))
  return { out: () => out, err: () => err }
}

describe.runIf(process.platform !== 'win32')('process launcher', () => {
  it('runs a command with its cwd, env, stdin and output, and reports its exit code', async () => {
    const dir = tempDir()
    const child = await startProcess('sh', ['-c', 'pwd; echo "$GREETING"; cat; echo oops >&2; exit 7'], {
      cwd: dir,
      env: { PATH: process.env.PATH, GREETING: 'hello from env' },
    })
    const output = collect(child)
    child.stdin?.end('line from stdin\n')
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (code, sig) => resolve([code, sig])))
    expect(await waitForExit(child)).toEqual({ code: 7, signal: null })
    expect(await closed).toEqual([7, null])
    expect(output.out()).toBe(`${realpathSync(dir)}\nhello from env\nline from stdin\n`)
    expect(output.err()).toBe('oops\n')
    expect(child.exitCode).toBe(7)
  })

  it('starts the process from the launcher, not from this process', async () => {
    const child = await startProcess('sleep', ['5'], { stdio: ['ignore', 'ignore', 'ignore'] })
    leftovers.push(child.pid as number)
    expect(launcher.pid).toBeGreaterThan(0)
    if (linux) expect(stat(child.pid as number).ppid).toBe(launcher.pid)
    child.kill('SIGKILL')
    expect(await waitForExit(child)).toEqual({ code: null, signal: 'SIGKILL' })
  })

  it('delivers signals: kill() ends the child and reports the signal', async () => {
    const child = await startProcess('sh', ['-c', 'trap "echo got-term; exit 42" TERM; echo ready; while :; do sleep 0.05; done'])
    const output = collect(child)
    await until(() => output.out().includes('ready'), 'the child to be ready')
    expect(child.kill('SIGTERM')).toBe(true)
    expect(child.killed).toBe(true)
    expect(await waitForExit(child)).toEqual({ code: 42, signal: null })
    expect(output.out()).toContain('got-term')
    const plain = await startProcess('sleep', ['30'])
    plain.kill()
    expect(await waitForExit(plain)).toEqual({ code: null, signal: 'SIGTERM' })
    expect(plain.kill()).toBe(false)
  })

  it.runIf(linux)('puts a detached child in its own process group, which a group kill ends whole', async () => {
    const child = await startProcess('sh', ['-c', 'sleep 30 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] })
    const output = collect(child)
    await until(() => output.out().trim() !== '', 'the grandchild pid')
    const grandchild = Number(output.out().trim())
    leftovers.push(child.pid as number, grandchild)
    expect(stat(child.pid as number).pgrp).toBe(child.pid)
    expect(stat(grandchild).pgrp).toBe(child.pid)
    process.kill(-(child.pid as number), 'SIGKILL')
    expect(await waitForExit(child)).toEqual({ code: null, signal: 'SIGKILL' })
    await until(() => !isAlive(grandchild), 'the grandchild to end')
    const attached = await startProcess('sleep', ['5'], { stdio: ['ignore', 'ignore', 'ignore'] })
    leftovers.push(attached.pid as number)
    // Not detached: in the group of the process that asked, as with a direct spawn.
    expect(stat(attached.pid as number).pgrp).toBe(stat(process.pid).pgrp)
    attached.kill('SIGKILL')
    await waitForExit(attached)
  })

  it('reports a hook that exits without reading its input by its exit code, not as a failed write', async () => {
    // The input is in the hook's socket when it exits unread (the sleep makes sure): the peer's reset is no write failure.
    const input = JSON.stringify({ prompt: 'x'.repeat(4 * 1024) })
    const result = await runHookProcess('sleep 0.3; echo lint server down >&2; exit 1', input, { cwd: tempDir(), env: process.env, timeoutMs: 10_000 })
    expect(result.error).toBeUndefined()
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('lint server down')
  })

  it('reports a program that does not exist as Node does: error ENOENT, then close', async () => {
    const child = await startProcess('hotaru-no-such-program', ['x'])
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => child.once('error', resolve))
    expect(error.code).toBe('ENOENT')
    expect(error.syscall).toBe('spawn hotaru-no-such-program')
    expect(child.pid).toBeUndefined()
    const run = await runFile('hotaru-no-such-program', [])
    expect(run.error?.code).toBe('ENOENT')
  })

  it('runs files as execFile does: output, exit code, timeout and output limit', async () => {
    expect(await runFile('sh', ['-c', 'echo out; echo err >&2'])).toEqual({ stdout: 'out\n', stderr: 'err\n', error: null })
    const failed = await runFile('sh', ['-c', 'echo bad >&2; exit 3'])
    expect(failed.error).toMatchObject({ code: 3, killed: false, signal: null })
    expect(failed.error?.message).toContain('bad')
    const started = Date.now()
    const slow = await runFile('sleep', ['30'], { timeout: 200 })
    expect(slow.error).toMatchObject({ killed: true, signal: 'SIGTERM' })
    expect(Date.now() - started).toBeLessThan(10_000)
    const big = await runFile('sh', ['-c', 'head -c 100000 /dev/zero | tr "\\0" x'], { maxBuffer: 1000 })
    expect(big.error).toMatchObject({ code: 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' })
    const controller = new AbortController()
    const aborted = runFile('sleep', ['30'], { signal: controller.signal })
    setTimeout(() => controller.abort(), 100)
    expect((await aborted).error?.name).toBe('AbortError')
  })

  it('carries large output and many commands at once', async () => {
    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => runFile('sh', ['-c', `head -c ${200_000 + i} /dev/zero | tr "\\0" y`], { maxBuffer: 1 << 20 })))
    runs.forEach((run, i) => {
      expect(run.error).toBeNull()
      expect(run.stdout.length).toBe(200_000 + i)
    })
  })

  it.runIf(linux)('starts a language server in its own group and ends its whole tree on stop', async () => {
    const dir = tempDir()
    // A stand-in server: answers on stdout what it reads on stdin and starts a helper, as tsserver does.
    const script = `require('node:child_process').spawn('sleep', ['30'], { stdio: 'ignore' }); process.stdin.on('data', (d) => process.stdout.write('echo:' + d))`
    const server = await spawnServerProcess({ command: process.execPath, args: ['-e', script], cwd: dir, env: { PATH: process.env.PATH ?? '' } })
    leftovers.push(server.pid)
    expect(stat(server.pid).ppid).toBe(launcher.pid)
    expect(stat(server.pid).pgrp).toBe(server.pid)
    let answer = ''
    server.child.stdout.on('data', (chunk: Buffer) => (answer += chunk.toString()))
    server.child.stdin.write('ping')
    await until(() => answer === 'echo:ping', 'the server to answer')
    const exited = waitForExit(server.child)
    await server.stop(200)
    expect((await exited).signal).toBe('SIGTERM')
    const members = (): number => Number(execFileSync('sh', ['-c', `pgrep -g ${server.pid} | wc -l`]).toString().trim())
    await until(() => members() === 0, 'the server group to be empty')
  })

  it('a language server the launcher could not start is refused with the reason, and nothing is left unhandled', async () => {
    // The launcher answers with a failure and no pipes, as when it is stopped while the start is under way.
    const starting = spawnServerProcess({ command: '/nonexistent/language-server', args: ['--stdio'], cwd: tempDir(), env: { PATH: process.env.PATH ?? '' } })
    await expect(starting).rejects.toThrow(/ENOENT|nonexistent/)
    expect(launcher.available).toBe(true)
  })

  it('falls back to a direct spawn when the launcher dies, and still sees its running children end', async () => {
    const running = await startProcess('sh', ['-c', 'sleep 0.5; echo done'], { stdio: ['ignore', 'pipe', 'ignore'] })
    const output = collect(running)
    process.kill(launcher.pid as number, 'SIGKILL')
    await until(() => lost.length > 0, 'the loss to be reported')
    expect(lost[0]).toContain('SIGKILL')
    expect(launcher.available).toBe(false)
    expect(await waitForExit(running)).toEqual({ code: null, signal: null })
    expect(output.out()).toBe('done\n')
    const direct = await startProcess('sh', ['-c', 'echo $PPID'], { stdio: ['ignore', 'pipe', 'ignore'] })
    const directOut = collect(direct)
    expect(await waitForExit(direct)).toEqual({ code: 0, signal: null })
    expect(Number(directOut.out().trim())).toBe(process.pid)
    expect(lost).toHaveLength(1)
  })
})
