import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHttpFixture } from '../fixtures/mcp-server/http-app'
import { isRunning, liveDescendants } from '../integration/mcp/helpers-proc'
import { runPreload } from './harness/preload-vm'
import { ShellProcess, type Snapshot } from './harness/shell-process'

// The Electron binary cannot run here; the BUILT main process can: it boots in a
// child Node whose `electron` import resolves to a recording stand-in.
const ROOT = resolve(import.meta.dirname, '../..')
const MAIN = join(ROOT, 'out/main/index.js')
const PRELOAD = join(ROOT, 'out/preload/index.cjs')
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href
const MCP_FIXTURE = join(ROOT, 'test/fixtures/mcp-server/stdio.ts')

const dirs: string[] = []
function scratch(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `hotaru-shell-${name}-`))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function shellEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    SHELL: '/bin/sh',
    HOTARU_DATA_DIR: join(home, 'data'),
    HOTARU_LOG: 'warn',
    ...extra,
  }
}

function boot(mainFile: string, options: { env: NodeJS.ProcessEnv; args?: string[]; cwd?: string }): ShellProcess {
  const shell = new ShellProcess(mainFile, { cwd: options.cwd ?? ROOT, ...options })
  running.push(shell)
  return shell
}
const running: ShellProcess[] = []
afterAll(() => {
  for (const shell of running) shell.kill()
})

function projectWithMcpServer(): string {
  const folder = scratch('project')
  writeFileSync(
    join(folder, '.mcp.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: ['--import', TSX_LOADER, MCP_FIXTURE, '--mode', 'ok'] } } }),
  )
  return folder
}

beforeAll(() => {
  if (!existsSync(MAIN) || !existsSync(PRELOAD)) throw new Error('out/main and out/preload are missing: run `npm run build` first')
})

describe('the built main process', () => {
  let shell: ShellProcess
  let beforeReady: Snapshot
  let afterReady: Snapshot
  let firstFolder: string
  const home = scratch('home')

  beforeAll(async () => {
    firstFolder = scratch('first')
    shell = boot(MAIN, { env: shellEnv(home), args: [firstFolder, '--enable-logging'] })
    await shell.booted
    beforeReady = await shell.call<Snapshot>('snapshot')
    afterReady = await shell.call<Snapshot>('ready')
  }, 30_000)

  it('registers the app:// scheme and takes the single-instance lock before ready', () => {
    const names = beforeReady.calls.map((c) => c.name)
    expect(names).toContain('app.requestSingleInstanceLock')
    expect(beforeReady.calls.every((c) => !c.ready)).toBe(true)
    expect(beforeReady.schemes).toEqual([
      { schemes: [{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) as unknown }], beforeReady: true },
    ])
    expect(beforeReady.windows).toEqual([])
    expect(afterReady.protocols).toEqual(['app'])
  })

  it('opens one isolated, sandboxed window on its own origin with a preload that exists, and shows it once loaded', () => {
    expect(afterReady.windows).toHaveLength(1)
    const [window] = afterReady.windows
    expect(window?.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false })
    expect(existsSync(window?.webPreferences.preload as string)).toBe(true)
    expect(window?.webPreferences.preload).toBe(PRELOAD)
    expect(window).toMatchObject({ url: 'app://hotaru/index.html', loadState: 'loaded', show: false, shown: true, hasOpenHandler: true })
    expect(afterReady.dialogs).toEqual([])
  })

  it('has an ipcMain.handle for every method the built preload exposes, and no handler the preload cannot reach', async () => {
    const preload = await runPreload(PRELOAD)
    expect(Object.keys(preload.exposed).sort()).toEqual(['hotaru', 'hotaruDesktop'])
    expect(preload.invoked.length).toBeGreaterThan(50)
    expect([...preload.invoked].sort()).toEqual(afterReady.handlers)
    expect(preload.listened.every((channel) => channel.includes(':'))).toBe(true)
  })

  it('serves the renderer with the CSP header, 404 for a missing file and 403 for traversal or another host', async () => {
    const page = await shell.call<{ status: number; headers: Record<string, string>; start: string }>('request', { url: 'app://hotaru/index.html' })
    expect(page.status).toBe(200)
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'|default-src 'self'/)
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.start.toLowerCase()).toContain('<!doctype html>')
    const missing = await shell.call<{ status: number; headers: Record<string, string> }>('request', { url: 'app://hotaru/assets/missing.js' })
    expect(missing.status).toBe(404)
    expect(missing.headers['content-security-policy']).toBeDefined()
    for (const url of ['app://hotaru/..%2f..%2fpackage.json', 'app://hotaru/%2e%2e%2fmain%2findex.js', 'app://elsewhere/index.html']) {
      const refused = await shell.call<{ status: number }>('request', { url })
      expect(refused.status, url).toBe(403)
    }
  })

  it('opens http(s) links from the page in the OS browser and denies every other window or navigation', async () => {
    expect(await shell.call('windowOpen', { url: 'https://example.com/docs' })).toEqual({ action: 'deny' })
    expect(await shell.call('windowOpen', { url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(await shell.call('windowOpen', { url: 'javascript:alert(1)' })).toEqual({ action: 'deny' })
    expect(await shell.call('navigate', { url: 'http://example.org/' })).toEqual({ prevented: true })
    expect(await shell.call('navigate', { url: 'smb://server/share' })).toEqual({ prevented: true })
    expect(await shell.call('navigate', { url: 'app://hotaru/index.html#x' })).toEqual({ prevented: false })
    const { opened } = await shell.call<Snapshot>('snapshot')
    expect(opened).toEqual(['https://example.com/docs', 'http://example.org/'])
  })

  it('points esbuild (TypeScript custom tools) at a binary outside the archive', () => {
    expect(afterReady.env.ESBUILD_BINARY_PATH).toMatch(/@esbuild[/\\].+esbuild(\.exe)?$/)
    expect(existsSync(afterReady.env.ESBUILD_BINARY_PATH as string)).toBe(true)
  })

  it('opens the folder of the first launch, of a second launch and of macOS open-file as project tabs', async () => {
    const roots = async (): Promise<string[]> =>
      ((await shell.invoke<{ root: string }[]>('project.list', {})).value ?? []).map((p) => p.root)
    expect(await roots()).toEqual([firstFolder])
    const second = scratch('second')
    const cwd = resolve(second, '..')
    await shell.call('emit', { event: 'second-instance', args: [['/opt/Hotaru/hotaru', second.slice(cwd.length + 1), '--flag'], cwd] })
    const opened = scratch('opened')
    expect(await shell.call('emit', { event: 'open-file', args: [opened] })).toEqual({ prevented: true })
    // A file is not a project: macOS keeps its default handling.
    expect(await shell.call('emit', { event: 'open-file', args: [join(ROOT, 'package.json')] })).toEqual({ prevented: false })
    expect(await roots()).toEqual([firstFolder, second, opened])
    const { windows } = await shell.call<Snapshot>('snapshot')
    expect(windows[0]?.focused).toBeGreaterThanOrEqual(2)
  })

  it('refuses IPC from a frame that is not its own page', async () => {
    const answer = await shell.invoke('project.list', {}, 'https://evil.example/')
    expect(answer).toMatchObject({ ok: false, error: { name: 'Forbidden' } })
  })

  it('on quit disposes the services: every pty and MCP server process ends, then it exits 0', async () => {
    const folder = projectWithMcpServer()
    await shell.call('emit', { event: 'second-instance', args: [['/opt/Hotaru/hotaru', folder], ROOT] })
    const projects = (await shell.invoke<{ id: string; root: string }[]>('project.list', {})).value ?? []
    const project = projects.find((p) => p.root === folder)
    expect(project).toBeDefined()
    const projectId = project?.id as string
    // The folder's .mcp.json starts nothing until the user trusts the folder.
    expect(await shell.invoke('trust.decide', { projectId, trusted: true })).toMatchObject({ ok: true })
    let state = ''
    for (let i = 0; i < 150 && state !== 'connected'; i++) {
      const servers = (await shell.invoke<{ state: string }[]>('mcp.list', { projectId })).value ?? []
      state = servers[0]?.state ?? ''
      if (state !== 'connected') await new Promise((r) => setTimeout(r, 100))
    }
    expect(state).toBe('connected')
    const terminal = await shell.invoke<{ pid?: number }>('pty.create', { projectId, cols: 80, rows: 24 })
    expect(terminal.ok, JSON.stringify(terminal)).toBe(true)
    const children = liveDescendants(shell.child.pid as number)
    // The MCP server (node) and the terminal's shell, at least.
    expect(children.length).toBeGreaterThanOrEqual(2)
    await shell.call('quit')
    expect(await shell.exited).toEqual({ code: 0, appExit: 0, dialogs: [] })
    expect(children.filter(isRunning)).toEqual([])
  }, 30_000)
})

describe('MCP sign-in from the desktop app', () => {
  it('opens the OAuth authorization page in the OS browser and connects once the user signed in', async () => {
    const server = await startHttpFixture({ oauth: true })
    try {
      const folder = scratch('oauth-project')
      writeFileSync(join(folder, '.mcp.json'), JSON.stringify({ mcpServers: { secure: { type: 'http', url: server.url } } }))
      const shell = boot(MAIN, { env: shellEnv(scratch('oauth-home'), { STUB_KEYCHAIN: '1', STUB_BROWSER: 'follow' }), args: [folder] })
      await shell.booted
      await shell.call('ready')
      const projectId = ((await shell.invoke<{ id: string }[]>('project.list', {})).value ?? [])[0]?.id as string
      expect(await shell.invoke('trust.decide', { projectId, trusted: true })).toMatchObject({ ok: true })
      let status: { state?: string; needsAuth?: boolean } = {}
      for (let i = 0; i < 100 && !status.needsAuth; i++) {
        status = ((await shell.invoke<{ state: string; needsAuth?: boolean }[]>('mcp.list', { projectId })).value ?? [])[0] ?? {}
        if (!status.needsAuth) await new Promise((r) => setTimeout(r, 100))
      }
      expect(status).toMatchObject({ state: 'failed', needsAuth: true })
      const signedIn = await shell.invoke<{ state: string }>('mcp.authenticate', { projectId, name: 'secure' })
      expect(signedIn).toMatchObject({ ok: true, value: { state: 'connected' } })
      const { opened } = await shell.call<Snapshot>('snapshot')
      expect(opened).toHaveLength(1)
      const authorize = new URL(opened[0] as string)
      expect(`${authorize.protocol}//${authorize.host}`).toBe(new URL(server.url).origin)
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
      await shell.call('quit')
      expect(await shell.exited).toMatchObject({ code: 0, appExit: 0 })
    } finally {
      await server.close()
    }
  }, 60_000)
})

describe('start-up of the built main process', () => {
  it('loads only ASCII files: one other character would make V8 keep a whole chunk as a two-byte string', () => {
    const files = ['out/main', 'out/preload'].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => /\.c?js$/.test(f)).map((f) => join(dir, f)),
    )
    expect(files).toContain('out/main/index.js')
    expect(files.filter((f) => readFileSync(join(ROOT, f)).some((byte) => byte > 0x7f))).toEqual([])
  })

  it('leaves at once, without a window, when another instance holds the lock', async () => {
    const home = scratch('locked')
    const shell = boot(MAIN, { env: shellEnv(home, { STUB_LOCK_TAKEN: '1' }) })
    expect(await shell.exited).toEqual({ code: 0, appExit: 0, dialogs: [] })
    expect(existsSync(join(home, 'data', 'hotaru.db'))).toBe(false)
  })

  it('shows a start-up failure in a dialog and exits 1 instead of lingering without a window', async () => {
    const home = scratch('broken')
    // The data directory is a file: the database cannot be created.
    writeFileSync(join(home, 'data'), 'not a directory')
    const shell = boot(MAIN, { env: shellEnv(home) })
    await shell.booted
    const ready = shell.call<Snapshot>('ready').catch(() => null)
    const exit = await shell.exited
    await ready
    expect(exit).toMatchObject({ code: 1, appExit: 1, dialogs: [{ title: 'Hotaru could not start' }] })
    expect(exit.dialogs[0]?.content).toMatch(/ENOTDIR|EEXIST|not a directory/)
  })

  it('shows a renderer that cannot be loaded as an error and exits 1 instead of keeping a hidden window', async () => {
    const app = scratch('no-renderer')
    cpSync(join(ROOT, 'out/main'), join(app, 'out/main'), { recursive: true })
    cpSync(join(ROOT, 'out/preload'), join(app, 'out/preload'), { recursive: true })
    cpSync(join(ROOT, 'package.json'), join(app, 'package.json'))
    symlinkSync(join(ROOT, 'node_modules'), join(app, 'node_modules'), 'dir')
    mkdirSync(join(app, 'out/renderer'))
    const shell = boot(join(app, 'out/main/index.js'), { env: shellEnv(scratch('no-renderer-home')), cwd: app })
    await shell.booted
    const ready = shell.call<Snapshot>('ready').catch(() => null)
    const exit = await shell.exited
    await ready
    expect(exit).toMatchObject({ code: 1, appExit: 1, dialogs: [{ title: 'Hotaru could not load its window' }] })
    expect(exit.dialogs[0]?.content).toContain('ERR_FILE_NOT_FOUND')
  })
})
