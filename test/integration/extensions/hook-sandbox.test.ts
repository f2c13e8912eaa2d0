import { existsSync, mkdirSync, realpathSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runHookProcess } from '../../../src/main/core/extensions/hook-process'
import { commandSandbox } from '../../../src/main/core/sandbox/project'
import { tempDir } from '../../support/temp'

const servers: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r))
})

function sandboxed() {
  const base = realpathSync(tempDir('hotaru-hook-sbx-'))
  const project = join(base, 'project')
  mkdirSync(project)
  const sandbox = commandSandbox({ enabled: true }, { projectRoot: project, homeDir: join(base, 'home'), dataDir: join(base, 'data'), env: process.env })
  return { base, project, sandbox }
}

describe('hooks in the OS sandbox', () => {
  it('cannot leave a protected file behind: it is moved out and the hook output says so', async () => {
    const { project, sandbox } = sandboxed()
    const result = await runHookProcess('echo "{}" > hotaru.json; echo done', '{}', { cwd: project, env: process.env, timeoutMs: 10_000, sandbox })
    expect(result.stdout).toBe('done\n')
    expect(existsSync(join(project, 'hotaru.json'))).toBe(false)
    expect(result.stderr).toContain(`blocked by the sandbox: created a protected path: ${project}/hotaru.json (moved to `)
  })

  it('cannot open unix sockets', async () => {
    const { base, project, sandbox } = sandboxed()
    const socketPath = join(base, 'daemon.sock')
    const daemon = createServer((c) => c.end('reached\n'))
    servers.push(daemon)
    await new Promise<void>((r) => daemon.listen(socketPath, r))
    const script = `require("net").connect(${JSON.stringify(socketPath)}).on("data", (d) => process.stdout.write(d)).on("error", (e) => console.log(e.code))`
    const result = await runHookProcess(`node -e '${script}'`, '{}', { cwd: project, env: process.env, timeoutMs: 10_000, sandbox })
    expect(result.stdout).toBe('EPERM\n')
  })
})
