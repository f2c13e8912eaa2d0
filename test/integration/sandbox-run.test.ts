import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru } from '../support/cli'
import { tempDir } from '../support/temp'

const servers: FakeLlm[] = []
const http: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
  for (const s of http.splice(0)) await new Promise((r) => s.close(r))
})

async function fake(turns: FakeTurn[]): Promise<FakeLlm> {
  const server = await startFakeLlm({ turns })
  servers.push(server)
  return server
}

async function loopback(): Promise<{ port: number; hits: string[] }> {
  const hits: string[] = []
  const server = createServer((req, res) => {
    hits.push(req.url ?? '')
    res.end('LOOPBACK-ANSWER\n')
  })
  http.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { port: (server.address() as AddressInfo).port, hits }
}

/** A user with a home (and secrets in it), a data dir, a project next to an outside folder, and a user config. */
function world(userConfig: Record<string, unknown>) {
  const base = realpathSync(tempDir('hotaru-sbx-run-'))
  const home = join(base, 'home')
  const data = join(base, 'data')
  const project = join(base, 'project')
  const outside = join(base, 'project-outside')
  for (const dir of [join(home, '.ssh'), join(home, '.config/hotaru'), data, project, outside]) mkdirSync(dir, { recursive: true })
  writeFileSync(join(home, '.ssh/id_test'), 'SECRET-SSH-KEY\n')
  writeFileSync(join(home, '.aws-like-secret'), 'SECRET-CUSTOM\n')
  writeFileSync(join(outside, 'keep.txt'), 'outside\n')
  symlinkSync(outside, join(project, 'link'))
  writeFileSync(join(home, '.config/hotaru/hotaru.json'), JSON.stringify(userConfig))
  const env = fakeProviderEnv({ anthropicBaseURL: '', openaiBaseURL: '' }, data, { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), HOTARU_DATA_DIR: data })
  return { base, home, data, project, outside, env }
}

const ALLOW_EVERYTHING = { bash: 'allow', edit: 'allow', read: 'allow', external_directory: 'allow' }

function bash(command: string): FakeTurn['toolCalls'] {
  return [{ name: 'bash', args: { command, description: 'run it' } }]
}

/** Escapes that got past the shell analysis at some point; with the sandbox on none of them may write outside. */
const ESCAPES = [
  'touch "$PWD-outside/x1"',
  'echo x > "$PWD-outside/x2"',
  'touch ~+/link/x3',
  'touch {link/x4,y4}',
  "echo x > ~+/$'\\x6c'ink/x5",
  "x='a[$(touch ../project-outside/x6)]'; [[ $x -eq 0 ]]",
  "x='a[$(touch ../project-outside/x7)]'; ((x))",
  'echo $(( a[$(touch ../project-outside/x8)] ))',
  'echo hi > >(cat > ../project-outside/x9)',
  'cat < <(touch ../project-outside/x10)',
  'coproc touch ../project-outside/x11; wait',
  'cp /etc/hostname link/x12',
  'ln -s /tmp link/x13',
  'mkdir link/x14',
  'bash -c "touch ../project-outside/x15"',
  'eval "touch ../project-outside/x16"',
  'f() { touch ../project-outside/x17; }; f',
  'printf -v p "%s" ../project-outside/x18; touch "$p"',
  'IFS=,; c="touch,../project-outside/x19"; $c',
  "cat > link/x20 <<'EOF'\nhere\nEOF",
  'exec 3> link/x21',
  'BASH_ENV=link/x22 bash -c true; echo > "$(dirname "$PWD")/project-outside/x23"',
  'node -e "require(\'fs\').writeFileSync(\'../project-outside/x24\', \'x\')"',
  'python3 -c "open(\'../project-outside/x25\',\'w\')" 2>/dev/null || true',
  'mv link/keep.txt link/moved.txt',
  'rm -f link/keep.txt',
]

describe('hotaru run with the sandbox on', () => {
  it('stops writes outside, denied reads, network and secrets from the environment; work in the project succeeds', async () => {
    const net = await loopback()
    const w = world({ sandbox: { enabled: true, denyRead: ['~/.aws-like-secret'] }, permission: ALLOW_EVERYTHING, hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'touch "$HOME/hook-outside"; touch hook-inside' }] }] } })
    const server = await fake([
      { toolCalls: bash('touch "$HOME/home-write"') },
      { toolCalls: bash('echo x > ../next-to-project') },
      { toolCalls: bash('echo y > "$PWD/../pwd-write"') },
      { toolCalls: bash('cat ~/.ssh/id_test; cat ~/.aws-like-secret; cp ~/.ssh/id_test stolen') },
      { toolCalls: bash(`curl -sS -m 5 http://127.0.0.1:${net.port}/exfil || wget -q -T 5 -O- http://127.0.0.1:${net.port}/exfil2`) },
      { toolCalls: bash('mkdir -p build/out node_modules/.cache && echo built > build/out/app.js && cat build/out/app.js && echo c > node_modules/.cache/c') },
      { toolCalls: bash('echo "key=[$ANTHROPIC_API_KEY][$OPENAI_API_KEY]"') },
      { toolCalls: ESCAPES.map((command) => ({ name: 'bash', args: { command } })) },
      { text: 'Done.' },
    ])
    const env = { ...w.env, ANTHROPIC_BASE_URL: server.anthropicBaseURL, OPENAI_BASE_URL: server.openaiBaseURL, GITHUB_TOKEN: 'SECRET-GH-TOKEN' }
    const result = await runHotaru(['run', '--dir', w.project, 'try things'], env)
    expect(result.code).toBe(0)
    expect(result.stderr.split('\n')[0]).toMatch(/^sandbox: on \(bubblewrap\)/)

    expect(existsSync(join(w.home, 'home-write'))).toBe(false)
    expect(existsSync(join(w.base, 'next-to-project'))).toBe(false)
    expect(existsSync(join(w.base, 'pwd-write'))).toBe(false)
    expect(existsSync(join(w.home, 'hook-outside'))).toBe(false)
    expect(existsSync(join(w.project, 'hook-inside'))).toBe(true)
    expect(readdirSync(w.outside)).toEqual(['keep.txt'])
    expect(readdirSync(w.base).sort()).toEqual(['data', 'home', 'project', 'project-outside'])
    expect(net.hits).toEqual([])
    expect(readFileSync(join(w.project, 'build/out/app.js'), 'utf8')).toBe('built\n')
    expect(existsSync(join(w.project, 'node_modules/.cache/c'))).toBe(true)
    expect(existsSync(join(w.project, 'stolen'))).toBe(false)

    const sent = JSON.stringify(server.requests.map((r) => r.body))
    for (const secret of ['SECRET-SSH-KEY', 'SECRET-CUSTOM', 'LOOPBACK-ANSWER', 'SECRET-GH-TOKEN', 'sk-test']) expect(sent).not.toContain(secret)
    expect(sent).toContain('key=[][]')
    // The escapes ran (and failed) rather than being refused before running.
    expect(sent).toContain('EROFS')
    expect(sent).toContain(`write outside the project: ${w.outside}/x3`)
    expect(sent).toContain(`write outside the project: ${w.outside}/x21`)
    expect(sent).toContain(`write outside the project: ${w.outside}/x24`)
    expect(sent).toContain('built')
    expect(sent).toContain(`blocked by the sandbox: write outside the project: ${w.home}/home-write`)
    expect(sent).toContain(`blocked by the sandbox: write outside the project: ${w.base}/next-to-project`)
    expect(sent).toContain(`blocked by the sandbox: read of a denied path: ${w.home}/.ssh/id_test`)
    expect(sent).toContain('blocked by the sandbox: network access')
  }, 120_000)

  it('with autoAllow and the default rules runs a sandboxed command without a prompt and without a TTY', async () => {
    const w = world({ sandbox: { enabled: true, autoAllow: true } })
    const server = await fake([{ toolCalls: bash('touch made.txt && mkdir -p dist && ls') }, { text: 'Made it.' }])
    const env = { ...w.env, ANTHROPIC_BASE_URL: server.anthropicBaseURL, OPENAI_BASE_URL: server.openaiBaseURL }
    const result = await runHotaru(['run', '--dir', w.project, 'make a file'], env)
    expect(result.code).toBe(0)
    expect(result.stderr).not.toMatch(/permission needed/)
    expect(existsSync(join(w.project, 'made.txt'))).toBe(true)
    expect(JSON.stringify(server.requests[1]?.body)).toContain('made.txt')
  })

  it('with autoAllow a command that names a path outside the project is still asked about', async () => {
    const w = world({ sandbox: { enabled: true, autoAllow: true } })
    const server = await fake([{ toolCalls: bash('touch ../outside-auto') }, { text: 'No.' }])
    const env = { ...w.env, ANTHROPIC_BASE_URL: server.anthropicBaseURL, OPENAI_BASE_URL: server.openaiBaseURL }
    const result = await runHotaru(['run', '--dir', w.project, 'make a file'], env)
    expect(result.stderr).toMatch(/permission needed for external_directory/)
    expect(existsSync(join(w.base, 'outside-auto'))).toBe(false)
  })

  it('without autoAllow the default rules still ask (and without a TTY, refuse)', async () => {
    const w = world({ sandbox: { enabled: true } })
    const server = await fake([{ toolCalls: bash('touch made.txt') }, { text: 'Could not.' }])
    const env = { ...w.env, ANTHROPIC_BASE_URL: server.anthropicBaseURL, OPENAI_BASE_URL: server.openaiBaseURL }
    const result = await runHotaru(['run', '--dir', w.project, 'make a file'], env)
    expect(result.stderr).toMatch(/permission needed for bash/)
    expect(existsSync(join(w.project, 'made.txt'))).toBe(false)
  })

  it('lets allowed domains through the proxy; another host is a permission ask, refused without a TTY', async () => {
    const net = await loopback()
    const w = world({ sandbox: { enabled: true, network: { allowedDomains: ['localhost'] } }, permission: ALLOW_EVERYTHING })
    const server = await fake([
      { toolCalls: bash(`curl -sS -m 10 http://localhost:${net.port}/allowed; echo; curl -sS -m 10 http://127.0.0.1:${net.port}/other`) },
      { text: 'ok' },
    ])
    const env = { ...w.env, ANTHROPIC_BASE_URL: server.anthropicBaseURL, OPENAI_BASE_URL: server.openaiBaseURL }
    const result = await runHotaru(['run', '--dir', w.project, 'fetch'], env)
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/permission needed for sandbox_network: Network access to 127\.0\.0\.1/)
    expect(net.hits).toEqual(['/allowed'])
    const sent = JSON.stringify(server.requests[1]?.body)
    expect(sent).toContain('LOOPBACK-ANSWER')
    expect(sent).toContain('blocked by the sandbox: network access to 127.0.0.1')
  }, 60_000)

  it('a project config cannot switch the sandbox off', async () => {
    const w = world({ sandbox: { enabled: true }, permission: ALLOW_EVERYTHING })
    writeFileSync(join(w.project, 'hotaru.json'), JSON.stringify({ sandbox: { enabled: false, allowWrite: ['/'] } }))
    const server = await fake([{ toolCalls: bash('touch "$HOME/x"') }, { text: 'ok' }])
    const env = { ...w.env, ANTHROPIC_BASE_URL: server.anthropicBaseURL, OPENAI_BASE_URL: server.openaiBaseURL }
    const result = await runHotaru(['run', '--dir', w.project, 'go'], env)
    expect(result.stderr).toMatch(/^sandbox: on/)
    expect(existsSync(join(w.home, 'x'))).toBe(false)
  })

  it('moves out a protected file the model created and refuses unix sockets; the model is told both', async () => {
    const w = world({ sandbox: { enabled: true }, permission: ALLOW_EVERYTHING })
    const socketPath = join(w.base, 'daemon.sock')
    const daemon = createServer((_req, res) => res.end('DAEMON-ANSWER\n'))
    http.push(daemon)
    await new Promise<void>((r) => daemon.listen(socketPath, r))
    const server = await fake([
      { toolCalls: bash(`echo '{"mcpServers":{}}' > .mcp.json; curl -sS -m 5 --unix-socket ${socketPath} http://x/ || echo "curl failed"`) },
      { text: 'Done.' },
    ])
    const env = { ...w.env, ANTHROPIC_BASE_URL: server.anthropicBaseURL, OPENAI_BASE_URL: server.openaiBaseURL }
    const result = await runHotaru(['run', '--dir', w.project, 'go'], env)
    expect(result.code).toBe(0)
    expect(existsSync(join(w.project, '.mcp.json'))).toBe(false)
    const sent = JSON.stringify(server.requests[1]?.body)
    expect(sent).not.toContain('DAEMON-ANSWER')
    expect(sent).toContain('curl failed')
    expect(sent).toContain(`blocked by the sandbox: created a protected path: ${w.project}/.mcp.json (moved to `)
  })
})
