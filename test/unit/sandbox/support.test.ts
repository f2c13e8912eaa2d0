import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxPolicy } from '../../../src/main/core/sandbox/policy'
import { CommandSandbox } from '../../../src/main/core/sandbox/sandbox'
import { sandboxStatus, sandboxStatusLine } from '../../../src/main/core/sandbox/status'
import { detectSandboxSupport } from '../../../src/main/core/sandbox/support'
import { bashTool } from '../../../src/main/core/tools/bash'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { tempDir } from '../../support/temp'
import { testContext } from '../tools/context'

describe('sandbox support', () => {
  it('says bubblewrap is missing and how to install it', () => {
    const support = detectSandboxSupport({ platform: 'linux', env: { PATH: '/nonexistent' }, bwrapDirs: [] })
    expect(support).toMatchObject({ backend: 'bubblewrap', available: false, problem: 'bubblewrap (bwrap) is not installed' })
    expect(support.installHint).toContain('apt-get install -y bubblewrap')
    expect(support.dependencies).toEqual([expect.objectContaining({ name: 'bubblewrap', found: false })])
  })

  it('finds bubblewrap here and checks that it can start a sandbox', () => {
    const support = detectSandboxSupport({ platform: 'linux', env: process.env })
    expect(support).toMatchObject({ backend: 'bubblewrap', available: true })
    expect(support.dependencies[0]).toMatchObject({ name: 'bubblewrap', found: true })
  })

  it('says Windows has none', () => {
    expect(detectSandboxSupport({ platform: 'win32', env: {} })).toMatchObject({
      backend: 'none',
      available: false,
      problem: expect.stringContaining('not available on Windows'),
    })
  })

  it('fails closed: with the sandbox on but unable to run, bash runs nothing and says why', async () => {
    const root = realpathSync(tempDir())
    const support = detectSandboxSupport({ platform: 'linux', env: { PATH: '/nonexistent' }, bwrapDirs: [] })
    const sandbox = new CommandSandbox(sandboxPolicy({ enabled: true }, { projectRoot: root, homeDir: root, dataDir: join(root, 'd') }), support)
    const ctx = testContext(root, { sandbox })
    const result = await runTool(bashTool, { command: 'touch ran.txt' }, ctx)
    expect(result.error?.message).toMatch(/sandbox is on .* bubblewrap \(bwrap\) is not installed.*apt-get install -y bubblewrap.*not run/s)
    expect(ctx.asks).toEqual([])
  })
})

describe('hotaru run status line', () => {
  const ctx = { projectRoot: '/p', homeDir: '/h', dataDir: '/d' }
  it('is one line for off and on', () => {
    expect(sandboxStatusLine(undefined, ctx)).toMatch(/^sandbox: off/)
    const on = sandboxStatusLine({ enabled: true, autoAllow: true, network: { allowedDomains: ['a.com'] } }, ctx)
    expect(on).toMatch(/^sandbox: on \(bubblewrap\) · writes: project \+ temp · \d+ denied paths · network: 1 allowed domain\(s\) via proxy · autoAllow$/)
    expect(on).not.toContain('\n')
  })

  it('says when unix sockets are allowed', () => {
    expect(sandboxStatusLine({ enabled: true, allowUnixSockets: true }, ctx)).toContain(' · unix sockets allowed')
    expect(sandboxStatusLine({ enabled: true }, ctx)).not.toContain('unix sockets')
  })
})

describe('the seccomp filter in settings', () => {
  it('is listed beside bubblewrap with what it does', () => {
    const ctx = { projectRoot: '/p', homeDir: '/h', dataDir: '/d' }
    expect(sandboxStatus({ enabled: true }, ctx).dependencies).toContainEqual({ name: 'seccomp filter', found: true, note: 'refuses unix sockets (EPERM)' })
    expect(sandboxStatus({ enabled: true, allowUnixSockets: true }, ctx).dependencies).toContainEqual(expect.objectContaining({ name: 'seccomp filter', note: expect.stringContaining('unix sockets allowed') }))
  })
})

describe('macOS launch', () => {
  it('runs the command through sandbox-exec with the generated profile and a secret-free environment', async () => {
    const root = realpathSync(tempDir())
    const policy = sandboxPolicy({ enabled: true }, { projectRoot: root, homeDir: root, dataDir: join(root, 'd'), platform: 'darwin' })
    const support = { platform: 'darwin' as const, backend: 'seatbelt' as const, available: true, dependencies: [] }
    const launch = await new CommandSandbox(policy, support).wrap(['/bin/bash', '-c', 'ls'], { cwd: root, env: { PATH: '/bin', OPENAI_API_KEY: 'k' } })
    expect(launch.command).toBe('/usr/bin/sandbox-exec')
    expect(launch.args[0]).toBe('-p')
    expect(launch.args[1]).toContain(`(allow file-write* (subpath ${JSON.stringify(root)})`)
    expect(launch.args.slice(2)).toEqual(['/bin/bash', '-c', 'ls'])
    expect(launch.env).toMatchObject({ PATH: '/bin', TMPDIR: join(policy.tempDir, 'tmp'), HOTARU_SANDBOX: '1' })
    expect(launch.env.OPENAI_API_KEY).toBeUndefined()
    expect(launch.droppedEnv).toEqual(['OPENAI_API_KEY'])
    await launch.dispose()
  })
})
