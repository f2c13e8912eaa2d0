import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PreviewStatus } from '@shared/schema/preview'
import { ProjectInstance } from '../../../src/main/core/project/instance'
import { ServiceKey } from '../../../src/main/core/project/service-key'
import { PreviewService } from '../../../src/main/core/preview/service'
import { TerminalHost } from '../../../src/main/core/pty/terminal-host'
import { MAIN_PORT_RANGE, PORT_RANGE } from '../../../src/main/core/worktree/ports'
import { descendants, isAlive } from '../../../src/main/core/process/tree'
import { ROOT } from '../../support/cli'
import { confineForTerminal } from '../../../src/main/core/preview/confine'
import { commandSandbox } from '../../../src/main/core/sandbox/project'
import { tempDir, writeTree } from '../../support/temp'
import { until } from '../../support/until'

/** A dev server as a launch file names one: listens on $PORT, and starts a child that would outlive a careless stop. */
const SERVER = `
const http = require('node:http')
const { spawn } = require('node:child_process')
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
require('node:fs').writeFileSync('child.pid', String(child.pid))
http.createServer((req, res) => res.end('hello from ' + process.env.PORT + ' ' + process.env.HOTARU_PORT)).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'))
`

const TERMINALS = new ServiceKey<TerminalHost>('pty.terminals')
const PREVIEW = new ServiceKey<PreviewService>('preview')

let seq = 0
function openProject(files: Record<string, string>): ProjectInstance {
  const root = realpathSync(writeTree(tempDir('hotaru-preview-'), files))
  seq++
  return new ProjectInstance({ id: `previewtest${String(seq).padStart(4, '0')}`, root, name: 'p' })
}

function previewOf(project: ProjectInstance, options: { trusted?: boolean; sandboxHome?: string } = {}): { preview: PreviewService; statuses: PreviewStatus[]; terminals: TerminalHost } {
  const statuses: PreviewStatus[] = []
  const terminals = project.service(TERMINALS, (p) => new TerminalHost({ projectId: p.id, root: p.root, extraEnv: () => p.commandEnv, publish: () => {} }))
  const preview = project.service(
    PREVIEW,
    (p) =>
      new PreviewService({
        project: p,
        trusted: () => options.trusted ?? true,
        terminals: () => terminals,
        shell: () => '/bin/sh',
        ...(options.sandboxHome !== undefined ? { confine: sandboxed(p.root, options.sandboxHome) } : {}),
        onStatus: (status) => statuses.push(status),
      }),
  )
  return { preview, statuses, terminals }
}

/** The OS sandbox as \`sandbox.enabled\` sets it up, with a home folder of the test's own. */
function sandboxed(root: string, home: string) {
  const sandbox = commandSandbox({ enabled: true }, { projectRoot: root, homeDir: home, dataDir: join(home, 'data'), env: process.env })
  if (!sandbox) throw new Error('the sandbox is on')
  return (command: Parameters<typeof confineForTerminal>[1], cwd: string, env: Record<string, string>) => confineForTerminal(sandbox, command, cwd, env)
}

describe('PreviewService', () => {
  it('serves a plain index.html with the built-in server and reports ready once it answers', async () => {
    const project = openProject({ 'index.html': '<h1>Static page</h1>' })
    const { preview, statuses } = previewOf(project, { trusted: false })
    const status = await preview.start()
    expect(status).toMatchObject({ state: 'ready', source: 'static', name: 'static' })
    expect(await (await fetch(status.url ?? '')).text()).toBe('<h1>Static page</h1>')
    expect(statuses.map((s) => s.state)).toEqual(['starting', 'ready'])
    await project.dispose()
    await expect(fetch(status.url ?? '')).rejects.toThrow()
  })

  it('runs a launch file command in a terminal tab on the worktree port and kills its whole tree when the project closes', async () => {
    const project = openProject({
      'server.js': SERVER,
      '.hotaru/launch.json': JSON.stringify({ configurations: [{ name: 'web', command: 'node server.js' }] }),
    })
    const port = PORT_RANGE.from + Math.floor(Math.random() * ((PORT_RANGE.to - PORT_RANGE.from) / 10)) * 10
    project.setPorts({ first: port, last: port + 9 })
    const { preview, terminals } = previewOf(project)
    const status = await preview.start()
    expect(status).toMatchObject({ state: 'ready', source: 'launch.json', name: 'web', port, url: `http://127.0.0.1:${port}/` })
    expect(await (await fetch(status.url ?? '')).text()).toBe(`hello from ${port} ${port}`)
    expect(terminals.list().map((t) => t.id)).toContain(status.terminalId)
    const { readFileSync } = await import('node:fs')
    const childPid = Number(readFileSync(`${project.root}/child.pid`, 'utf8'))
    expect(isAlive(childPid)).toBe(true)
    await project.dispose()
    expect(isAlive(status.pid ?? 0)).toBe(false)
    expect(isAlive(childPid)).toBe(false)
  })

  it('a main tree gets a free port of its own, and stop ends the server', async () => {
    const project = openProject({ 'server.js': SERVER, 'package.json': JSON.stringify({ scripts: { dev: 'node server.js' } }) })
    const { preview } = previewOf(project)
    const status = await preview.start()
    expect(status).toMatchObject({ state: 'ready', source: 'package.json', name: 'dev', command: 'npm run dev' })
    // Below the ephemeral ports, which any program's listen(0) or outgoing connection may take meanwhile.
    expect(status.port).toBeGreaterThanOrEqual(MAIN_PORT_RANGE.from)
    expect(status.port).toBeLessThanOrEqual(MAIN_PORT_RANGE.to)
    expect(status.port).toBeLessThan(32768)
    expect(await (await fetch(status.url ?? '')).text()).toBe(`hello from ${status.port} ${status.port}`)
    expect((await preview.stop()).state).toBe('stopped')
    await until(() => !isAlive(status.pid ?? 0), 'the server ended')
    await expect(fetch(status.url ?? '')).rejects.toThrow()
    await project.dispose()
  })

  it('in the OS sandbox the dev server answers on its loopback port, cannot write outside the project, and ends with it', async () => {
    const home = realpathSync(tempDir('hotaru-preview-home-'))
    const project = openProject({
      'server.js': `require('node:fs').writeFile(${JSON.stringify(join(home, 'escaped'))}, 'x', (e) => require('node:fs').writeFileSync('write-result', e ? e.code : 'written'))\n${SERVER}`,
      '.hotaru/launch.json': JSON.stringify({ configurations: [{ name: 'web', command: 'node server.js' }] }),
    })
    const { preview } = previewOf(project, { sandboxHome: home })
    const status = await preview.start()
    expect(await (await fetch(status.url ?? '')).text()).toBe(`hello from ${status.port} ${status.port}`)
    await until(() => existsSync(join(project.root, 'write-result')), 'the server tried its write')
    expect(readFileSync(join(project.root, 'write-result'), 'utf8')).toMatch(/^(EROFS|EACCES|EPERM)$/)
    expect(existsSync(join(home, 'escaped'))).toBe(false)
    await project.dispose()
    expect(isAlive(status.pid ?? 0)).toBe(false)
    await expect(fetch(status.url ?? '')).rejects.toThrow()
  })

  it('detects a Vite dev script, tells Vite the port and loopback host, and stop ends npm, Vite and its helpers', async () => {
    const project = openProject({
      'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module', scripts: { dev: 'vite' } }),
      'index.html': '<!doctype html><html><body><h1>Vite fixture</h1><script type="module" src="/main.js"></script></body></html>',
      'main.js': "document.querySelector('h1').textContent = 'from vite'\n",
    })
    // The repository's own Vite on the fixture's PATH of scripts; the fixture's node_modules is its own, so Vite's cache goes there.
    mkdirSync(join(project.root, 'node_modules/.bin'), { recursive: true })
    symlinkSync(join(ROOT, 'node_modules/vite/bin/vite.js'), join(project.root, 'node_modules/.bin/vite'))
    const { preview } = previewOf(project)
    const status = await preview.start()
    expect(status).toMatchObject({ state: 'ready', source: 'vite', name: 'dev', command: 'npm run dev -- --port "$PORT" --strictPort --host 127.0.0.1' })
    const page = await (await fetch(status.url ?? '')).text()
    // Served by Vite: its client is injected into the page.
    expect(page).toContain('/@vite/client')
    expect(page).toContain('Vite fixture')
    const tree = [status.pid ?? 0, ...descendants(status.pid ?? 0)]
    expect(tree.length).toBeGreaterThan(2)
    await preview.stop()
    expect(tree.filter(isAlive)).toEqual([])
    await project.dispose()
  }, 120_000)

  it('a restricted folder runs nothing from its launch file until trusted', async () => {
    const project = openProject({ 'server.js': SERVER, '.hotaru/launch.json': JSON.stringify({ configurations: [{ name: 'web', command: 'node server.js' }] }) })
    const { preview, terminals } = previewOf(project, { trusted: false })
    await expect(preview.start()).rejects.toMatchObject({ name: 'PreviewRestricted' })
    expect(terminals.list()).toEqual([])
    await project.dispose()
  })

  it('an invalid launch file fails with the file and the JSON path', async () => {
    const project = openProject({ '.hotaru/launch.json': JSON.stringify({ configurations: [{ name: 'web', comand: 'x' }] }) })
    const { preview } = previewOf(project)
    await expect(preview.start()).rejects.toThrow(/\.hotaru\/launch\.json: configurations\[0\]\.comand: unknown key "comand"/)
    await project.dispose()
  })

  it('a server that exits before answering fails the start with its exit', async () => {
    const project = openProject({ '.hotaru/launch.json': JSON.stringify({ configurations: [{ name: 'web', command: 'echo broken; exit 3' }] }) })
    const { preview, statuses } = previewOf(project)
    await expect(preview.start()).rejects.toThrow(/exited with code 3/)
    expect(statuses.at(-1)).toMatchObject({ state: 'failed' })
    await project.dispose()
  })
})
