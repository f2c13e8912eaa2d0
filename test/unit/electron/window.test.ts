import { describe, expect, it, vi } from 'vitest'
import { testServices } from '../../support/services'

// Stand-ins for the Electron binary: they record what the window code asks for.
const created: { options: Record<string, unknown>; contents: FakeContents; url?: string }[] = []
class FakeContents {
  readonly handlers = new Map<string, (...args: unknown[]) => void>()
  openHandler?: (details: { url: string }) => { action: string }
  permissionHandler?: (contents: unknown, permission: string, cb: (ok: boolean) => void) => void
  on(event: string, fn: (...args: unknown[]) => void) {
    this.handlers.set(event, fn)
  }
  setWindowOpenHandler(fn: FakeContents['openHandler']) {
    this.openHandler = fn
  }
  session = {
    setPermissionRequestHandler: (fn: FakeContents['permissionHandler']) => (this.permissionHandler = fn),
    setPermissionCheckHandler: () => undefined,
  }
}
const opened: string[] = []
const failures: string[] = []
const onLoadFailure = (message: string): void => {
  failures.push(message)
}
vi.mock('electron', () => ({
  shell: {
    openExternal: (url: string) => {
      opened.push(url)
      return Promise.resolve()
    },
  },
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  BrowserWindow: class {
    webContents = new FakeContents()
    constructor(options: Record<string, unknown>) {
      created.push({ options, contents: this.webContents })
    }
    on() {}
    once() {}
    maximize() {}
    isDestroyed() {
      return false
    }
    loadURL(url: string) {
      const entry = created.at(-1)
      if (entry) entry.url = url
      return Promise.resolve()
    }
  },
}))

const { createMainWindow } = await import('../../../src/main/electron/window')

describe('main window', () => {
  it('is isolated, sandboxed, and loads our own origin', () => {
    const services = testServices()
    createMainWindow(services.storage.kv, { onLoadFailure })
    const { options, url } = created.at(-1) ?? { options: {} as Record<string, unknown>, url: undefined }
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
    })
    expect(url).toBe('app://hotaru/index.html')
  })

  it('blocks navigation away, new windows and permission requests', () => {
    const services = testServices()
    createMainWindow(services.storage.kv, { onLoadFailure })
    const { contents } = created.at(-1) as { contents: FakeContents }
    let prevented = 0
    const event = { preventDefault: () => prevented++ }
    contents.handlers.get('will-navigate')?.(event, 'https://evil.example/')
    contents.handlers.get('will-navigate')?.(event, 'app://hotaru/index.html')
    expect(prevented).toBe(1)
    expect(contents.openHandler?.({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' })
    expect(contents.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(contents.openHandler?.({ url: 'vscode://run' })).toEqual({ action: 'deny' })
    // Only the web links reach the OS browser (the navigation away included), nothing else.
    expect(opened).toEqual(['https://evil.example/', 'https://example.com/docs'])
    const answers: boolean[] = []
    contents.permissionHandler?.(null, 'media', (ok) => answers.push(ok))
    contents.permissionHandler?.(null, 'geolocation', (ok) => answers.push(ok))
    expect(answers).toEqual([false, false])
  })

  it('restores saved bounds that are still on screen', () => {
    const services = testServices()
    services.storage.kv.set('window.main', { bounds: { x: 10, y: 20, width: 900, height: 700 }, maximized: false })
    createMainWindow(services.storage.kv, { onLoadFailure })
    expect(created.at(-1)?.options).toMatchObject({ x: 10, y: 20, width: 900, height: 700 })
    services.storage.kv.set('window.main', { bounds: { x: 5000, y: 5000, width: 900, height: 700 }, maximized: false })
    createMainWindow(services.storage.kv, { onLoadFailure })
    expect(created.at(-1)?.options).toMatchObject({ width: 1400, height: 900 })
    expect(created.at(-1)?.options.x).toBeUndefined()
  })
})
