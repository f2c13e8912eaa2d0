import { once } from 'node:events'
import { createServer, type Server } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { PortBlock } from '../../../src/shared/schema/worktree'
import { terminalsOf } from '../../../src/main/core/pty/terminal-host'
import { canListen, findFreeBlock, PORT_BLOCK_SIZE } from '../../../src/main/core/worktree/ports'
import { gitRepo } from '../../support/git-repo'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { until } from '../../support/until'

/** Holds `port` of 127.0.0.1 until closed (or does nothing when something else holds it already). */
async function hold(port: number): Promise<Server | undefined> {
  if (!(await canListen(port))) return undefined
  const server = createServer()
  server.listen(port, '127.0.0.1')
  await once(server, 'listening')
  return server
}

const overlap = (a: PortBlock, b: PortBlock) => a.first <= b.last && b.first <= a.last

describe('worktree ports', () => {
  it('skips a block with a port in use', async () => {
    const first = await findFreeBlock([])
    const server = await hold(first + 3)
    try {
      const next = await findFreeBlock([], { from: first, to: first + 10 * PORT_BLOCK_SIZE })
      expect(next).toBeGreaterThanOrEqual(first + PORT_BLOCK_SIZE)
      // And a block another worktree holds is skipped without testing it.
      expect(await findFreeBlock([next], { from: next, to: next + 10 * PORT_BLOCK_SIZE })).toBeGreaterThan(next)
    } finally {
      server?.close()
    }
  })

  it('gives every worktree its own block, not a port another one has or one in use, and reaches its terminals', async () => {
    // Started from a worktree's terminal, Hotaru does not hand that worktree's ports to its main trees.
    process.env.HOTARU_PORT = '41990'
    process.env.HOTARU_PORTS = '41990-41999'
    const services = testServices()
    expect(process.env.HOTARU_PORT).toBeUndefined()
    const parent = services.projects.openFolder(gitRepo({ 'a.txt': 'a\n' }))
    const a = await services.worktrees.create(parent, { name: 'one' })
    expect(a.worktree.ports).not.toBeNull()
    const portsA = a.worktree.ports as PortBlock
    expect(portsA.last - portsA.first + 1).toBe(10)
    expect(a.project.ports).toEqual(portsA)
    expect(parent.ports).toBeNull()
    expect(parent.commandEnv).toEqual({})

    // A port of the block that would come next is in use: that block is passed over.
    const busy = portsA.last + 4
    const server = await hold(busy)
    const b = await services.worktrees.create(parent, { name: 'two' })
    server?.close()
    const portsB = b.worktree.ports as PortBlock
    expect(overlap(portsA, portsB)).toBe(false)
    expect(busy >= portsB.first && busy <= portsB.last).toBe(false)
    expect((await services.worktrees.list(parent)).map((w) => w.ports)).toEqual([portsA, portsB])

    // A terminal of the worktree has its ports; one of the main tree has none.
    const output = new Map<string, string>()
    const stop = services.bus.subscribe((e) => {
      if (e.channel !== 'pty:data') return
      const p = e.envelope.payload as { id: string; data: string }
      output.set(p.id, (output.get(p.id) ?? '') + p.data)
    })
    const sh = { shell: { file: '/bin/sh', args: [] } }
    const inWorktree = terminalsOf(b.project, services.bus, sh).create({ cols: 80, rows: 24 })
    const inMain = terminalsOf(parent, services.bus, sh).create({ cols: 80, rows: 24 })
    terminalsOf(b.project, services.bus).get(inWorktree.id).write('echo "P=$HOTARU_PORT R=$HOTARU_PORTS."\r')
    terminalsOf(parent, services.bus).get(inMain.id).write('echo "P=${HOTARU_PORT-none}."\r')
    const expected = `P=${portsB.first} R=${portsB.first}-${portsB.last}.`
    await until(() => (output.get(inWorktree.id) ?? '').includes(expected), 'the worktree terminal prints its ports')
    await until(() => (output.get(inMain.id) ?? '').includes('P=none.'), 'the main terminal prints no port')
    stop.dispose()
  })

  it('gives a worktree recorded without ports a block when it is next opened', async () => {
    const dataDir = tempDir('hotaru-data-')
    const root = writeTree(tempDir(), { 'a.txt': 'a\n' })
    const first = testServices({ dataDir })
    const created = await first.worktrees.create(first.projects.openFolder(root), { name: 'old' })
    first.storage.db.prepare('UPDATE worktrees SET port_first = NULL').run()
    await first.dispose()

    const second = testServices({ dataDir })
    const parent = second.projects.openFolder(root)
    expect((await second.worktrees.list(parent))[0]?.ports).toBeNull()
    const { worktree, project } = await second.worktrees.open(parent, 'old')
    expect(worktree.ports).not.toBeNull()
    expect(project.commandEnv).toEqual({ HOTARU_PORT: String(worktree.ports?.first), HOTARU_PORTS: `${worktree.ports?.first}-${worktree.ports?.last}` })
    expect((await second.worktrees.list(parent))[0]?.ports).toEqual(worktree.ports)
    expect(created.worktree.kind).toBe('copy')
  })
})
