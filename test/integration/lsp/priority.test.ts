import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { testServices } from '../../support/services'
import { niceness } from '../../support/niceness'
import { tempDir, writeTree } from '../../support/temp'
import { waitFor } from './helpers'

const SERVER = join(import.meta.dirname, '../../fixtures/lsp-server/quiet-server.mjs')

/** The scheduler group of a process's session and that group's niceness (`/autogroup-12 nice 10`); undefined without autogroups. */
function autogroup(pid: number | 'self'): { group: string; nice: number } | undefined {
  if (!existsSync(`/proc/${pid}/autogroup`)) return undefined
  const [group = '', , nice] = readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim().split(' ')
  return { group, nice: Number(nice) }
}

function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number)
}

/** A started server of the `spawns` kind, its pid and the pid of the helper it started once initialized. */
async function startedServer(transport: 'serve' | 'cli') {
  const root = writeTree(tempDir(), {
    'a.q': 'text\n',
    'hotaru.json': JSON.stringify({ lsp: { quiet: { command: [process.execPath, SERVER, 'spawns'], extensions: ['.q'] } } }),
  })
  const services = testServices({ transport })
  services.trust.trust(root)
  const project = services.projects.openFolder(root)
  const lsp = await services.lsp.load(project)
  expect(await lsp.handleFor(join(root, 'a.q'))?.ensure()).toBeDefined()
  let pid: number | undefined
  await waitFor(() => (pid = lsp.statuses().find((s) => s.id === 'quiet')?.pid) !== undefined && childrenOf(pid).length > 0)
  const server = pid as number
  return { server, helper: childrenOf(server)[0] as number, stop: () => project.dispose() }
}

describe.runIf(process.platform === 'linux')('language servers', () => {
  // A turn never waits for them (diagnostics of a busy server arrive late), in the app as in a one-shot run.
  it.each(['serve', 'cli'] as const)('run as background work in %s, and so do the processes they start', async (transport) => {
    const ownBefore = autogroup('self')
    const { server, helper, stop } = await startedServer(transport)
    try {
      expect(niceness(server)).toBe(10)
      expect(niceness(helper)).toBe(10)
      // A server leads its own session: where the kernel shares the CPU between sessions first, its session is lowered too.
      const own = autogroup('self')
      const its = autogroup(server)
      if (own && its) {
        expect(its.group).not.toBe(own.group)
        expect(its.nice).toBe(10)
        expect(autogroup(helper)).toEqual(its)
        expect(own).toEqual(ownBefore)
      }
    } finally {
      await stop()
    }
  }, 60_000)
})
