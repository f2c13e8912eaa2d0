import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ProjectInstance } from '../../../src/main/core/project/instance'
import { ServiceKey } from '../../../src/main/core/project/service-key'
import { McpManager } from '../../../src/main/core/mcp'
import { tempDir } from '../../support/temp'
import { createManager, fixtureServer, isRunning, liveDescendants, TSX_LOADER, waitFor } from './helpers'

/** Processes below this test process that were not there before `action`. */
async function spawnedDuring(action: () => Promise<void>): Promise<number[]> {
  const before = new Set(liveDescendants(process.pid))
  await action()
  return liveDescendants(process.pid).filter((pid) => !before.has(pid))
}

describe('no orphan MCP processes', () => {
  it('dispose ends every server and its children, including ones that ignore SIGTERM', async () => {
    const manager = createManager({
      servers: {
        plain: fixtureServer('ok', {}, ['--grandchild']),
        stubborn: fixtureServer('ok', {}, ['--grandchild', '--stubborn']),
        hung: fixtureServer('hang', { timeoutMs: 60_000 }, ['--grandchild']),
        remote_like_failed: fixtureServer('crash-after-call', {}, ['--grandchild']),
      },
      projectRoot: tempDir(),
    })
    let starting: Promise<void> = Promise.resolve()
    const spawned = await spawnedDuring(async () => {
      // Not awaited: `hung` never finishes its handshake, and dispose must end it mid-start.
      starting = manager.start()
      await waitFor(() => manager.statuses().filter((s) => s.state === 'connected').length === 3, 15_000, 'servers')
      // Each server plus its grandchild.
      await waitFor(() => liveDescendants(process.pid).length >= 8, 5_000, 'grandchildren')
    })
    expect(spawned.length).toBeGreaterThanOrEqual(8)
    const servers = manager.statuses().map((s) => s.pid)
    for (const pid of servers) if (pid !== undefined) expect(spawned).toContain(pid)

    expect(manager.status('hung').state).toBe('starting')
    await manager.dispose()
    await starting
    expect(spawned.filter(isRunning)).toEqual([])
  }, 40_000)

  it('closing the project (its DisposableStore) leaves no MCP process behind', async () => {
    const root = tempDir()
    const project = new ProjectInstance({ id: 'mcpprojecttest01', root, name: 'p' })
    const manager = project.service(new ServiceKey<McpManager>('mcp'), () => new McpManager({
      servers: { one: fixtureServer('ok', {}, ['--grandchild']), two: fixtureServer('ok', {}, ['--grandchild']) },
      projectRoot: root,
      projectMcpJson: false,
      killGraceMs: 500,
    }))
    const spawned = await spawnedDuring(async () => {
      await manager.start()
      await waitFor(() => liveDescendants(process.pid).length >= 4, 5_000, 'grandchildren')
    })
    expect(manager.statuses().map((s) => s.state)).toEqual(['connected', 'connected'])
    expect(spawned.length).toBeGreaterThanOrEqual(4)
    await project.dispose()
    expect(spawned.filter(isRunning)).toEqual([])
  })

  it('a crashed server does not leave its children running', async () => {
    const manager = createManager({
      servers: { crashy: fixtureServer('crash', {}, ['--grandchild']) },
      projectRoot: tempDir(),
      restartDelaysMs: [],
    })
    let spawned: number[] = []
    spawned = await spawnedDuring(async () => {
      await manager.start()
      await waitFor(() => liveDescendants(process.pid).length >= 2, 5_000, 'the grandchild')
    })
    await waitFor(() => manager.status('crashy').error?.includes('automatic restarts are off') === true, 10_000, 'the crash')
    expect(manager.status('crashy').state).toBe('failed')
    await waitFor(() => spawned.filter(isRunning).length === 0, 5_000, 'the crashed server tree to end')
  })

  for (const how of ['exit', 'throw'] as const) {
    it(`a host that ends without disposing (${how}) takes its servers with it`, async () => {
      const host = resolve(import.meta.dirname, 'exit-host.ts')
      const argv = fixtureServer('ok', {}, ['--grandchild']).command as string[]
      const child = spawn(process.execPath, ['--import', TSX_LOADER, host, how, tempDir(), JSON.stringify(argv)], {
        stdio: ['ignore', 'pipe', 'pipe'],
        cwd: resolve(import.meta.dirname, '../../..'),
        // The core imports `@shared/…`; tsx maps it with the node project's paths.
        env: { ...process.env, TSX_TSCONFIG_PATH: resolve(import.meta.dirname, '../../../tsconfig.node.json') },
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const code = await new Promise<number | null>((done) => child.once('exit', done))
      expect(code, stderr).toBe(how === 'exit' ? 0 : 1)
      const report = JSON.parse(stdout.trim()) as { states: string[]; pids: number[] }
      expect(report.states).toEqual(['connected', 'connected'])
      // Two servers, two grandchildren (and nothing else is left of them).
      expect(report.pids.length).toBeGreaterThanOrEqual(4)
      await waitFor(() => report.pids.filter(isRunning).length === 0, 3_000, 'the servers of the exited host to end')
    }, 40_000)
  }
})
