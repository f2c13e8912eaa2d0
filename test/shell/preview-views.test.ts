import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ShellProcess, type Snapshot } from './harness/shell-process'

// The built main process against the electron stand-in: the preview pages it makes and what they may do.
const ROOT = resolve(import.meta.dirname, '../..')
const MAIN = join(ROOT, 'out/main/index.js')

interface ViewFacts {
  webPreferences: Record<string, unknown>
  bounds: { x: number; y: number; width: number; height: number }
  visible: boolean
  inWindow: boolean
  loads: string[]
  closed: boolean
  hasOpenHandler: boolean
  permission: boolean | null
}

const dirs: string[] = []
const scratch = (name: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `hotaru-shell-${name}-`))
  dirs.push(dir)
  return dir
}

describe('preview pages of the desktop app', () => {
  let shell: ShellProcess
  let projectId = ''
  const views = (): Promise<ViewFacts[]> => shell.call<ViewFacts[]>('previewViews')
  const opened = async (): Promise<string[]> => (await shell.call<Snapshot>('snapshot')).opened

  beforeAll(async () => {
    const home = scratch('preview-home')
    const folder = scratch('preview-project')
    shell = new ShellProcess(MAIN, {
      cwd: ROOT,
      args: [folder],
      env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), SHELL: '/bin/sh', HOTARU_DATA_DIR: join(home, 'data'), HOTARU_LOG: 'warn' },
    })
    await shell.booted
    await shell.call('ready')
    projectId = ((await shell.invoke<{ id: string }[]>('project.list', {})).value ?? [])[0]?.id ?? ''
  }, 30_000)

  afterAll(async () => {
    await shell.call('quit').catch(() => undefined)
    await shell.exited
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('shows a typed loopback address in a sandboxed view of its own session, with no preload and no Node, over the pane', async () => {
    const answer = await shell.invoke('preview.open', { projectId, url: 'localhost:5173', typed: true })
    expect(answer).toEqual({ ok: true, value: { action: 'load', url: 'http://localhost:5173/', frameUrl: null } })
    const [view] = await views()
    expect(view?.webPreferences).toMatchObject({
      partition: 'persist:hotaru-preview',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
    })
    expect(view?.webPreferences).not.toHaveProperty('preload')
    expect(view).toMatchObject({ inWindow: true, visible: false, loads: ['http://localhost:5173/'], hasOpenHandler: true, permission: false })

    expect(await shell.invoke('preview.bounds', { projectId, bounds: { x: 900, y: 60, width: 500, height: 700 } })).toMatchObject({ ok: true })
    expect((await views())[0]).toMatchObject({ visible: true, bounds: { x: 900, y: 60, width: 500, height: 700 } })
    expect(await shell.invoke('preview.bounds', { projectId, bounds: null })).toMatchObject({ ok: true })
    expect((await views())[0]?.visible).toBe(false)
  })

  it('lets the page move within the preview’s origins and sends anything else to the system browser', async () => {
    expect(await shell.call('previewNavigate', { index: 0, url: 'http://localhost:5173/about' })).toEqual({ prevented: false })
    // Another local service is not the page's to open in the pane.
    expect(await shell.call('previewNavigate', { index: 0, url: 'http://127.0.0.1:6379/' })).toEqual({ prevented: true })
    expect(await shell.call('previewNavigate', { index: 0, url: 'https://example.com/docs' })).toEqual({ prevented: true })
    expect(await shell.call('previewNavigate', { index: 0, url: 'file:///etc/passwd' })).toEqual({ prevented: true })
    expect(await shell.call('previewWindowOpen', { index: 0, url: 'https://example.org/' })).toEqual({ action: 'deny' })
    expect(await shell.call('previewWindowOpen', { index: 0, url: 'javascript:alert(1)' })).toEqual({ action: 'deny' })
    // A new window of the preview's own site opens in the pane instead.
    expect(await shell.call('previewWindowOpen', { index: 0, url: 'http://localhost:5173/help' })).toEqual({ action: 'deny' })
    expect((await views())[0]?.loads).toEqual(['http://localhost:5173/', 'http://localhost:5173/help'])
    expect(await opened()).toEqual(['http://127.0.0.1:6379/', 'https://example.com/docs', 'https://example.org/'])

    // Typed into the address bar, another site opens in the system browser and not in the pane.
    expect(await shell.invoke('preview.open', { projectId, url: 'example.net', typed: true })).toEqual({
      ok: true,
      value: { action: 'opened', url: 'https://example.net/' },
    })
    expect((await opened()).at(-1)).toBe('https://example.net/')
    expect(await views()).toHaveLength(1)
  })

  it('keeps the page’s console in the preview’s log, where the agent reads it too', async () => {
    await shell.call('previewConsole', { index: 0, level: 'error', message: 'TypeError: price is undefined' })
    const log = await shell.invoke<{ kind: string; level: string; text: string; line?: number }[]>('preview.console', { projectId })
    expect(log.value).toContainEqual(expect.objectContaining({ kind: 'console', level: 'error', text: 'TypeError: price is undefined', line: 3 }))
  })

  it('goes back and forward in the page’s history, and closing the pane removes the view', async () => {
    expect(await shell.invoke('preview.go', { projectId, action: 'back' })).toMatchObject({ ok: true })
    expect(await shell.invoke('preview.go', { projectId, action: 'reload' })).toMatchObject({ ok: true })
    expect((await views())[0]?.loads.at(-1)).toBe('http://localhost:5173/')
    expect(await shell.invoke('preview.close', { projectId })).toMatchObject({ ok: true })
    expect((await views())[0]).toMatchObject({ inWindow: false, closed: true })
  })
})
