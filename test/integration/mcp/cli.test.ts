import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { runMcp } from '../../../src/cli/commands/mcp'
import { main } from '../../../src/cli/index'
import { withTrust } from '../../../src/cli/context'
import { CliError } from '../../../src/cli/errors'
import { tempDir } from '../../support/temp'
import { fixtureServer, isRunning, liveDescendants } from './helpers'

const saved = { ...process.env }

beforeEach(() => {
  // Only the test project's config: no user or machine config leaks in.
  const home = tempDir()
  process.env.HOME = home
  process.env.XDG_CONFIG_HOME = join(home, '.config')
  process.env.HOTARU_MANAGED_CONFIG_DIR = join(home, 'managed')
  process.env.HOTARU_DATA_DIR = join(home, 'data')
  delete process.env.HOTARU_CONFIG_CONTENT
})

afterEach(() => {
  process.env = { ...saved }
  vi.restoreAllMocks()
})

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString()
    return true
  })
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString()
    return true
  })
  try {
    const code = await runMcp(argv)
    return { code, stdout, stderr }
  } finally {
    vi.restoreAllMocks()
  }
}

/** A project whose servers run: the folder is trusted. */
async function project(): Promise<string> {
  const root = tempDir()
  await withTrust((trust) => trust.trust(root))
  writeFileSync(
    join(root, 'hotaru.json'),
    JSON.stringify({
      mcp: {
        good: fixtureServer(),
        broken: { type: 'local', command: 'hotaru-no-such-mcp-server' },
        off: fixtureServer('ok', { enabled: false }),
      },
    }),
  )
  return root
}

describe('hotaru mcp list', () => {
  it.runIf(process.platform === 'linux')('ends a server\'s child that double-forked out of its group, session and parentage', async () => {
    const root = tempDir()
    await withTrust((trust) => trust.trust(root))
    const pidFile = join(root, 'escaped.pid')
    const server = fixtureServer()
    const [command, ...args] = server.command as string[]
    // What a server's helper daemon does: `(setsid … &)` leaves the group, the session and the parent.
    const quoted = [command as string, ...args].map((arg) => `'${arg}'`).join(' ')
    // The subshell writes the helper's pid before the server starts (setsid execs in place: not a group leader).
    const script = `(setsid sh -c 'exec sleep 300' > /dev/null 2>&1 < /dev/null & echo $! > ${pidFile}); exec ${quoted}`
    writeFileSync(join(root, 'hotaru.json'), JSON.stringify({ mcp: { forks: { type: 'local', command: ['sh', '-c', script] } } }))
    const { code, stdout } = await run(['list', '--dir', root, '--json'])
    expect(code).toBe(0)
    expect((JSON.parse(stdout) as Array<{ state: string }>)[0]?.state).toBe('connected')
    const escaped = Number(readFileSync(pidFile, 'utf8'))
    expect(escaped).toBeGreaterThan(1)
    expect(isRunning(escaped)).toBe(false)
  })

  it('prints every server with its state, reason and tools as JSON, then stops them', async () => {
    const root = await project()
    const before = new Set(liveDescendants(process.pid))
    const { code, stdout } = await run(['list', '--dir', root, '--json'])
    expect(code).toBe(0)
    const entries = JSON.parse(stdout) as Array<{ name: string; type: string; state: string; error?: string; tools: string[] }>
    expect(entries.map((e) => [e.name, e.type, e.state])).toEqual([
      ['broken', 'local', 'failed'],
      ['good', 'local', 'connected'],
      ['off', 'local', 'disabled'],
    ])
    expect(entries[0]?.error).toContain('command "hotaru-no-such-mcp-server" was not found')
    expect(entries[0]?.tools).toEqual([])
    expect(entries[1]?.tools).toContain('good__echo')
    expect(entries[1]?.tools).toHaveLength(9)
    expect(entries[1]).not.toHaveProperty('error')
    const left = liveDescendants(process.pid).filter((pid) => !before.has(pid) && isRunning(pid))
    expect(left).toEqual([])
  })

  it('starts servers with the PATH of the shell the command was run from, without running a login shell', async () => {
    const root = tempDir()
    await withTrust((trust) => trust.trust(root))
    const ranLoginShell = join(root, 'login-shell-ran')
    // A login shell would take the user's rc files (seconds with some setups) and print another PATH.
    const shell = join(root, 'login-shell.sh')
    writeFileSync(shell, `#!/bin/sh\ntouch ${ranLoginShell}\nprintf '__HOTARU_PATH__/opt/login-only/bin__HOTARU_PATH__'\n`, { mode: 0o755 })
    process.env.SHELL = shell
    const seen = join(root, 'server-path')
    const [command, ...args] = fixtureServer().command as string[]
    const quoted = [command as string, ...args].map((arg) => `'${arg}'`).join(' ')
    writeFileSync(join(root, 'hotaru.json'), JSON.stringify({ mcp: { good: { type: 'local', command: ['sh', '-c', `printf %s "$PATH" > ${seen}; exec ${quoted}`] } } }))
    let stdout = ''
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout += chunk.toString()
      return true
    })
    const code = await main(['mcp', 'list', '--dir', root, '--json'])
    vi.restoreAllMocks()
    expect(code).toBe(0)
    expect((JSON.parse(stdout) as Array<{ state: string }>)[0]?.state).toBe('connected')
    expect(readFileSync(seen, 'utf8')).toBe(process.env.PATH)
    expect(existsSync(ranLoginShell)).toBe(false)
  })

  it('prints a readable table', async () => {
    const { code, stdout } = await run(['list', '--dir', await project()])
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^broken\s+local\s+failed\s+0 tools$/)
    expect(lines[1]).toMatch(/^ {4}command "hotaru-no-such-mcp-server" was not found/)
    expect(stdout).toMatch(/\ngood\s+local \(stdio\)\s+connected\s+9 tools\n/)
    expect(stdout).toMatch(/\noff\s+local\s+disabled\s+0 tools\n/)
  })

  it('says so when a project has no servers, and rejects bad input', async () => {
    const empty = tempDir()
    const { code, stdout } = await run(['list', '--dir', empty])
    expect(code).toBe(0)
    expect(stdout).toContain('No MCP servers for')
    await expect(runMcp(['list', '--dir', join(empty, 'nope')])).rejects.toThrow(CliError)
    await expect(runMcp(['lsit'])).rejects.toThrow('unknown mcp command "lsit"')
    await expect(runMcp(['list', '--bogus'])).rejects.toThrow(CliError)
    writeFileSync(join(empty, 'hotaru.json'), '{ "mcp": { "x": { "type": "local" } } }')
    await withTrust((trust) => trust.trust(empty))
    await expect(runMcp(['list', '--dir', empty])).rejects.toThrow(CliError)
  })

  it('starts none of an untrusted folder’s servers and says on stderr what it withheld and how to trust it', async () => {
    const root = tempDir()
    const marker = join(root, 'started')
    writeFileSync(join(root, 'hotaru.json'), JSON.stringify({ mcp: { planted: { type: 'local', command: ['sh', '-c', `touch ${marker}`] } } }))
    writeFileSync(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { dropped: { command: 'sh', args: ['-c', `touch ${marker}`] } } }))
    const { code, stdout, stderr } = await run(['list', '--dir', root])
    expect(code).toBe(0)
    expect(stdout).toContain('No MCP servers for')
    expect(existsSync(marker)).toBe(false)
    expect(stderr).toContain(`MCP server: planted: sh -c touch ${marker}`)
    expect(stderr).toContain(`MCP server: dropped: sh -c touch ${marker}`)
    expect(stderr).toContain(`hotaru trust --dir ${JSON.stringify(root)}`)
  })
})
