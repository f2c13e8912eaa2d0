import { describe, expect, it } from 'vitest'
import { gitRepo } from '../../support/git-repo'
import { testServices } from '../../support/services'
import { tempDir } from '../../support/temp'
import { until } from '../../support/until'
import { fixtureServer } from '../mcp/helpers'

function repoWithServer(config: object) {
  const [command, ...args] = fixtureServer('ok').command
  return gitRepo({ '.mcp.json': JSON.stringify({ mcpServers: { fx: { command, args } } }), 'hotaru.json': JSON.stringify(config) })
}

describe('MCP servers of worktrees', { timeout: 60_000 }, () => {
  it('start for a worktree only when the project says worktree.mcp, with the trust of the project', async () => {
    const home = tempDir()
    const services = testServices({ env: { HOME: home, XDG_CONFIG_HOME: `${home}/config` } })
    const plain = repoWithServer({})
    const enabled = repoWithServer({ worktree: { mcp: true } })
    services.trust.trust(plain)
    services.trust.trust(enabled)

    const off = services.projects.openFolder(plain)
    const { project: offWorktree } = await services.worktrees.create(off, { name: 'off' })
    const on = services.projects.openFolder(enabled)
    const { project: onWorktree } = await services.worktrees.create(on, { name: 'on' })

    const ready = (projectId: string) => services.mcp.statuses(projectId).some((s) => s.state === 'connected')
    await until(() => ready(onWorktree.id), 'the worktree of the enabled project to start its server', 45_000)
    await until(() => ready(off.id), 'the main project to start its server', 45_000)
    expect(services.mcp.statuses(offWorktree.id)).toEqual([])
    // The worktree lives under the data dir, outside every trusted folder: it runs with its project's trust.
    expect((await services.configs.of(onWorktree).load()).trust.trusted).toBe(true)
    // The worktree's server runs with its ports; the main tree's with none.
    const portsSeen = async (project: typeof on) => {
      const manager = await services.mcp.ensure(project, await services.configs.of(project).load())
      return (JSON.parse(String((await manager?.callTool('fx__environment', {}))?.output)) as { ports: string | null }).ports
    }
    expect(await portsSeen(onWorktree)).toBe(`${onWorktree.ports?.first}-${onWorktree.ports?.last}`)
    expect(await portsSeen(on)).toBeNull()
  })
})
