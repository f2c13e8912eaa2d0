import { readFileSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CommandSandbox } from '../../../src/main/core/sandbox/sandbox'
import { sandboxPolicy } from '../../../src/main/core/sandbox/policy'
import { sandboxSupport } from '../../../src/main/core/sandbox/support'
import { tempDir } from '../../support/temp'
import { createManager, fixtureServer } from './helpers'

describe('stdio MCP servers in the OS sandbox', () => {
  it('starts a server that opts in under bubblewrap, with the sandbox environment, and calls its tools', async () => {
    const root = realpathSync(tempDir())
    const sandbox = (): CommandSandbox =>
      new CommandSandbox(sandboxPolicy({ enabled: true }, { projectRoot: root, homeDir: root, dataDir: join(root, 'data') }), sandboxSupport())
    const manager = createManager({
      servers: { boxed: fixtureServer('ok', { sandbox: true, env: { HOTARU_FIXTURE_VALUE: 'v' } }), plain: fixtureServer('ok') },
      projectRoot: root,
      sandbox,
    })
    await manager.start()
    const boxed = manager.status('boxed')
    expect(boxed.state).toBe('connected')
    expect(readFileSync(`/proc/${boxed.pid}/comm`, 'utf8').trim()).toBe('bwrap')
    expect(readFileSync(`/proc/${manager.status('plain').pid}/comm`, 'utf8').trim()).not.toBe('bwrap')
    expect(await manager.callTool('boxed__add', { a: 2, b: 40 })).toEqual({ output: '42', isError: false })
    const env = JSON.parse(String((await manager.callTool('boxed__environment', {})).output)) as { cwd: string; value: string }
    expect(env).toMatchObject({ cwd: root, value: 'v' })
  })
})
