import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { BIN, fakeProviderEnv, runHotaru } from '../../support/cli'
import { gitRepo } from '../../support/git-repo'
import { tempDir, writeTree } from '../../support/temp'
import { imageDimensions, sniffImageType } from '../../../src/main/core/images'
import { isAlive } from '../../../src/main/core/process/tree'

/** A dev server that answers with its port and folder, and writes its pid where the test finds it. */
const SERVER = `
const http = require('node:http')
require('node:fs').writeFileSync('server.pid', String(process.pid))
http.createServer((req, res) => res.end(process.env.PORT + ' ' + process.cwd())).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('serving on ' + process.env.PORT))
`

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

/** `hotaru preview start …` in the background: resolves with its URL line, and a stop that sends SIGTERM and waits. */
function startPreview(args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, 'preview', 'start', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    exited.then((code) => reject(new Error(`preview start exited ${String(code)}: ${stderr}`)), reject)
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      const line = /^(http:\/\/\S+)\n/m.exec(stdout)
      if (line?.[1]) {
        resolve({
          url: line[1],
          stop: () => {
            child.kill('SIGTERM')
            return exited
          },
        })
      }
    })
  })
}

describe('hotaru preview', () => {
  it('status names the configuration; screenshot writes a JPEG of the page', async () => {
    const dir = writeTree(tempDir('hotaru-preview-cli-'), { 'index.html': '<h1 style="color:#036">Static site</h1>' })
    const env = fakeProviderEnv({ anthropicBaseURL: 'http://127.0.0.1:9', openaiBaseURL: 'http://127.0.0.1:9/v1' }, tempDir('hotaru-data-'), { HOTARU_CHROMIUM: '/usr/bin/chromium' })
    const status = await runHotaru(['preview', 'status', '--dir', dir], env)
    expect(status.code, status.stderr).toBe(0)
    expect(status.stdout).toContain('configuration: static (static)')
    const out = join(tempDir(), 'shot.jpg')
    const shot = await runHotaru(['preview', 'screenshot', '--dir', dir, '--out', out], env)
    expect(shot.code, shot.stderr).toBe(0)
    expect(shot.stdout.trim()).toBe(out)
    const bytes = readFileSync(out)
    expect(sniffImageType(bytes)).toBe('image/jpeg')
    expect(imageDimensions(bytes, 'image/jpeg')).toEqual({ width: 1280, height: 800 })
  })

  it('an invalid launch file fails with the file and JSON path', async () => {
    const dir = writeTree(tempDir('hotaru-preview-cli-'), { '.hotaru/launch.json': '{"configurations":[{"name":"web","command":"x","static":"y"}]}' })
    const env = fakeProviderEnv({ anthropicBaseURL: 'http://127.0.0.1:9', openaiBaseURL: 'http://127.0.0.1:9/v1' }, tempDir('hotaru-data-'))
    const status = await runHotaru(['preview', 'status', '--dir', dir], env)
    expect(status.code).toBe(1)
    expect(status.stderr).toContain('.hotaru/launch.json: configurations[0]: set exactly one of "command" and "static"')
  })

  it('two worktrees preview at once, each on its own port, and nothing is left once they stop', async () => {
    const repo = gitRepo({ 'server.js': SERVER, '.hotaru/launch.json': JSON.stringify({ configurations: [{ name: 'web', command: 'node server.js' }] }), '.gitignore': 'server.pid\n' })
    const server = await startFakeLlm({ turns: [{ text: 'ok' }, { text: 'ok' }] })
    servers.push(server)
    const env = fakeProviderEnv(server, tempDir('hotaru-data-'))
    expect((await runHotaru(['trust', '--dir', repo], env)).code).toBe(0)
    for (const name of ['alpha', 'beta']) {
      const run = await runHotaru(['run', '--dir', repo, '--worktree', name, 'hello'], env)
      expect(run.code, run.stderr).toBe(0)
    }
    const listed = JSON.parse((await runHotaru(['worktrees', 'list', '--dir', repo, '--json'], env)).stdout) as Array<{ name: string; path: string; ports: { first: number } }>
    const byName = new Map(listed.map((w) => [w.name, w]))

    const [alpha, beta] = await Promise.all([startPreview(['--dir', repo, '--worktree', 'alpha'], env), startPreview(['--dir', repo, '--worktree', 'beta'], env)])
    const a = byName.get('alpha')
    const b = byName.get('beta')
    expect(alpha.url).toBe(`http://127.0.0.1:${a?.ports.first}/`)
    expect(beta.url).toBe(`http://127.0.0.1:${b?.ports.first}/`)
    expect(a?.ports.first).not.toBe(b?.ports.first)
    expect(await (await fetch(alpha.url)).text()).toBe(`${a?.ports.first} ${a?.path}`)
    expect(await (await fetch(beta.url)).text()).toBe(`${b?.ports.first} ${b?.path}`)

    const pids = [a, b].map((w) => Number(readFileSync(join(w?.path ?? '', 'server.pid'), 'utf8')))
    expect(await alpha.stop()).toBe(0)
    expect(await beta.stop()).toBe(0)
    for (const pid of pids) expect(isAlive(pid)).toBe(false)
    await expect(fetch(alpha.url)).rejects.toThrow()
  })

  it('a server already answering on the configured port is used as it is, and left running', async () => {
    const port = await freePort()
    const dir = writeTree(tempDir('hotaru-preview-cli-'), {
      'index.html': '<p>hi</p>',
      '.hotaru/launch.json': JSON.stringify({ configurations: [{ name: 'site', static: '.', port }] }),
    })
    const env = fakeProviderEnv({ anthropicBaseURL: 'http://127.0.0.1:9', openaiBaseURL: 'http://127.0.0.1:9/v1' }, tempDir('hotaru-data-'), { HOTARU_CHROMIUM: '/usr/bin/chromium' })
    const first = await startPreview(['--dir', dir], env)
    expect(first.url).toBe(`http://127.0.0.1:${port}/`)
    const status = await runHotaru(['preview', 'status', '--dir', dir], env)
    expect(status.stdout).toContain(`url: http://127.0.0.1:${port}/\nstate: answering`)
    const shot = await runHotaru(['preview', 'screenshot', '--dir', dir, '--out', join(tempDir(), 'a.jpg')], env)
    expect(shot.code, shot.stderr).toBe(0)
    expect(shot.stderr).not.toContain('stopped')
    expect(await (await fetch(first.url)).text()).toBe('<p>hi</p>')
    expect(await first.stop()).toBe(0)
    await expect(fetch(first.url)).rejects.toThrow()
  })
})
