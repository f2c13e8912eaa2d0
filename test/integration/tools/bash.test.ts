import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProcessLauncher } from '../../../src/main/core/process/launcher/launcher'
import { useProcessLauncher } from '../../../src/main/core/process/spawn'
import { bashTool } from '../../../src/main/core/tools/bash'
import { bashKillTool } from '../../../src/main/core/tools/bash-kill'
import { bashOutputTool } from '../../../src/main/core/tools/bash-output'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { testContext } from '../../unit/tools/context'

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 50))
  }
}

// Every case runs twice: started directly (CLI, desktop app) and through the launcher (`hotaru serve`).
describe.each([
  { how: 'started directly', launcher: false },
  { how: 'started by the process launcher', launcher: true },
])('bash, $how', ({ launcher: viaLauncher }) => {
  let launcher: ProcessLauncher | undefined
  beforeAll(() => {
    if (!viaLauncher || process.platform === 'win32') return
    launcher = new ProcessLauncher()
    launcher.start()
    useProcessLauncher(launcher)
  })
  afterAll(async () => {
    useProcessLauncher(undefined)
    await launcher?.dispose()
  })

  it.runIf(viaLauncher && process.platform === 'linux')('starts its commands from the launcher', async () => {
    const ctx = testContext()
    const result = await runTool(bashTool, { command: 'echo $PPID' }, ctx)
    expect(Number(result.output.split('\n')[0])).toBe(launcher?.pid)
  })

  it('runs in the project root and reports output and exit code', async () => {
    const ctx = testContext()
    const result = await runTool(bashTool, { command: 'pwd && echo out && echo err >&2 && exit 3', description: 'test' }, ctx)
    expect(result.error).toBeUndefined()
    expect(result.output).toContain(ctx.root)
    expect(result.output).toMatch(/out\nerr/)
    expect(result.output).toContain('Exit code: 3')
    expect(result.metadata.exitCode).toBe(3)
    expect(ctx.asks.at(-1)).toMatchObject({ permission: 'bash', patterns: ['pwd', 'echo out', 'echo err', 'exit 3'] })
  })

  it('kills the whole process tree on timeout', async () => {
    const ctx = testContext()
    const pidFile = join(ctx.root, 'pids')
    const command = `(sleep 30 & echo $! >> ${pidFile}; setsid sleep 31 & echo $! >> ${pidFile}; wait) & echo $! >> ${pidFile}; wait`
    const started = Date.now()
    const result = await runTool(bashTool, { command, timeout: 700 }, ctx)
    expect(Date.now() - started).toBeLessThan(8000)
    expect(result.metadata.timedOut).toBe(true)
    expect(result.output).toMatch(/timed out after 700 ms/)
    const { readFileSync } = await import('node:fs')
    const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number)
    expect(pids.length).toBe(3)
    await waitFor(() => pids.every((p) => !alive(p)))
  })

  it.runIf(process.platform === 'linux')('on timeout also ends a grandchild that double-forked out of its group and parentage', async () => {
    const ctx = testContext()
    const pidFile = join(ctx.root, 'escaped')
    // The subshell exits at once: the setsid'd sleep is re-parented to init, in its own session and group.
    const command = `(setsid sh -c 'echo $$ > ${pidFile}; exec sleep 300' > /dev/null 2>&1 < /dev/null &); sleep 30`
    const result = await runTool(bashTool, { command, timeout: 700 }, ctx)
    expect(result.metadata.timedOut).toBe(true)
    const { readFileSync } = await import('node:fs')
    const escaped = Number(readFileSync(pidFile, 'utf8').trim())
    expect(escaped).toBeGreaterThan(0)
    await waitFor(() => !alive(escaped))
    expect(result.metadata.processesLeft).toBeUndefined()
  })

  it('stops on abort', async () => {
    const ctx = testContext()
    setTimeout(() => ctx.controller.abort(), 300)
    const result = await runTool(bashTool, { command: 'sleep 20' }, ctx)
    expect(result.error?.name).toBe('ToolAborted')
  })

  it('streams output while it runs', async () => {
    const ctx = testContext()
    await runTool(bashTool, { command: 'echo first; sleep 0.4; echo second' }, ctx)
    expect(ctx.progress.some((p) => String(p.metadata?.output).includes('first') && !String(p.metadata?.output).includes('second'))).toBe(true)
  })

  it('keeps the tail of long output and saves the rest', async () => {
    const ctx = testContext()
    const result = await runTool(bashTool, { command: 'seq 1 100000' }, ctx)
    expect(result.metadata.truncated).toBe(true)
    expect(result.output).toMatch(/100000\n\nExit code: 0$/)
    expect(result.output).not.toMatch(/^1\n2\n/)
    expect(existsSync(result.metadata.outputPath as string)).toBe(true)
  })

  it('stops what a foreground command leaves running', async () => {
    const ctx = testContext()
    const result = await runTool(bashTool, { command: 'sleep 40 & echo $!' }, ctx)
    const pid = Number(result.output.split('\n')[0])
    await waitFor(() => !alive(pid))
  })

  it('runs in the background, reads new output, and kills it', async () => {
    const ctx = testContext()
    const started = await runTool(bashTool, { command: 'for i in 1 2 3 4 5 6 7 8 9 10; do echo tick $i; sleep 0.2; done; sleep 30', background: true, description: 'ticker' }, ctx)
    const id = started.metadata.id as string
    expect(started.output).toContain('bash_output')
    await new Promise((r) => setTimeout(r, 500))
    const first = await runTool(bashOutputTool, { id }, ctx)
    expect(first.output).toContain('tick 1')
    expect(first.output).toContain('Status: running')
    await new Promise((r) => setTimeout(r, 500))
    const second = await runTool(bashOutputTool, { id }, ctx)
    expect(second.output).not.toContain('tick 1\n')
    expect(second.output).toMatch(/tick [3-9]/)
    const pid = ctx.background.get(id)?.pid as number
    const killed = await runTool(bashKillTool, { id }, ctx)
    expect(killed.output).toContain('Stopped')
    expect(ctx.background.get(id)?.status).toBe('killed')
    await waitFor(() => !alive(pid))
  })

  it('ends background processes when the registry is disposed', async () => {
    const ctx = testContext()
    const started = await runTool(bashTool, { command: 'sleep 60', background: true }, ctx)
    const pid = ctx.background.get(started.metadata.id as string)?.pid as number
    expect(alive(pid)).toBe(true)
    await ctx.background.dispose()
    await waitFor(() => !alive(pid))
  })

  it('does not run a command the rules deny', async () => {
    const { PermissionDeniedError } = await import('../../../src/main/core/permission/errors')
    const ctx = testContext(undefined, {
      async ask(request) {
        if (request.patterns.some((p) => p.startsWith('touch'))) throw new PermissionDeniedError('bash', 'touch', undefined)
      },
    })
    const result = await runTool(bashTool, { command: 'echo hi && echo $(touch pwned)' }, ctx)
    expect(result.error?.name).toBe('PermissionDenied')
    expect(existsSync(join(ctx.root, 'pwned'))).toBe(false)
  })

  it('rejects a timeout above the maximum with a clear message', async () => {
    const ctx = testContext()
    const result = await runTool(bashTool, { command: 'true', timeout: 700_000 }, ctx)
    expect(result.output).toMatch(/- timeout: .*600000/)
  })
})
