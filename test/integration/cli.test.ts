import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN, ROOT, startServe } from '../support/cli'
import { tempDir, writeTree } from '../support/temp'
import { WsClient } from '../support/ws-client'

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
const hotaru = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env } })

describe('hotaru CLI', () => {
  it('prints help and version', () => {
    const help = hotaru(['--help'])
    expect(help.status).toBe(0)
    expect(help.stdout).toContain('hotaru <command>')
    expect(help.stdout).toContain('serve')
    expect(execFileSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' }).trim()).toBe(version)
    const serveHelp = hotaru(['serve', '--help'])
    expect(serveHelp.stdout).toContain('--port')
  })

  it('rejects unknown commands and options with a message and a non-zero code', () => {
    const unknown = hotaru(['frobnicate'])
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('unknown command "frobnicate"')
    const badOption = hotaru(['serve', '--bogus'])
    expect(badOption.status).toBe(2)
    expect(badOption.stderr).toContain("Unknown option '--bogus'")
    const badPort = hotaru(['serve', '--port', 'abc'])
    expect(badPort.stderr).toContain('--port must be')
    const missingDir = hotaru(['serve', '--dir', '/no/such/dir'], { HOTARU_DATA_DIR: tempDir() })
    expect(missingDir.status).toBe(1)
    expect(missingDir.stderr).toContain('does not exist')
  })

  it('serve --port 0 --dir opens the folder as a tab and serves it over the token socket', async () => {
    const dataDir = tempDir()
    const project = writeTree(tempDir(), { 'hello.txt': 'hi', 'src/index.ts': '' })
    const served = await startServe(['--port', '0', '--dir', project], { HOTARU_DATA_DIR: dataDir })
    try {
      const page = await fetch(served.url)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('<div id="root">')
      const url = new URL(served.url)
      const client = await WsClient.connect(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`, {
        Origin: url.origin,
      })
      const list = (await client.call('project.list', {})) as { ok: boolean; value: { id: string; name: string }[] }
      expect(list.value.map((p) => p.name)).toEqual([project.split('/').at(-1)])
      const files = await client.call('fs.list', { projectId: list.value[0]?.id, path: '' })
      expect(files).toMatchObject({ ok: true, value: { entries: [{ name: 'src' }, { name: 'hello.txt' }] } })
      client.close()
    } finally {
      expect(await served.stop()).toBe(0)
    }
  })
})
