// A stand-in for the `electron` module of the main process. It does what the app
// needs to get through start-up and records every call, so the shell tests can
// assert what the built main asked Electron for and in which order.
import { EventEmitter } from 'node:events'
import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'

let ready = false
let resolveReady
const readyPromise = new Promise((resolve) => {
  resolveReady = resolve
})

/** Everything the app asked for; read by the boot script. */
export const record = {
  calls: [],
  schemes: [],
  protocolHandlers: new Map(),
  ipcHandlers: new Map(),
  windows: [],
  /** WebContentsViews the app created (preview pages), in order. */
  views: [],
  dialogs: [],
  opened: [],
  menus: 0,
  onExit: (code) => process.exit(code),
}

function plain(value) {
  if (typeof value === 'function') return '[function]'
  if (Array.isArray(value)) return value.map(plain)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
  return value
}

function note(name, ...args) {
  record.calls.push({ name, args: plain(args), ready })
}

export function preventable() {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true
    },
  }
}

const paths = { userData: process.env.STUB_USER_DATA ?? '' }

class App extends EventEmitter {
  isReady() {
    return ready
  }
  whenReady() {
    note('app.whenReady')
    return readyPromise
  }
  /** Driven by the test: Electron's `ready`. */
  markReady() {
    ready = true
    note('app.ready')
    this.emit('ready', preventable())
    resolveReady()
  }
  requestSingleInstanceLock() {
    note('app.requestSingleInstanceLock')
    return process.env.STUB_LOCK_TAKEN !== '1'
  }
  quit() {
    note('app.quit')
    const event = preventable()
    this.emit('before-quit', event)
    if (!event.defaultPrevented) this.exit(0)
  }
  exit(code = 0) {
    note('app.exit', code)
    record.onExit(code)
  }
  getPath(name) {
    return paths[name]
  }
  setPath(name, value) {
    note('app.setPath', name, value)
    paths[name] = value
  }
  getAppPath() {
    return process.cwd()
  }
  getName() {
    return 'Hotaru'
  }
  getVersion() {
    return '0.0.0'
  }
}
export const app = new App()

class Session {
  setPermissionRequestHandler(fn) {
    this.permissionRequest = fn
  }
  setPermissionCheckHandler(fn) {
    this.permissionCheck = fn
  }
}

let nextContentsId = 1
class WebContents extends EventEmitter {
  id = nextContentsId++
  session = new Session()
  sent = []
  destroyed = false
  constructor() {
    super()
    this.mainFrame = { url: '' }
  }
  setWindowOpenHandler(fn) {
    this.openHandler = fn
  }
  send(channel) {
    this.sent.push(channel)
  }
  isDestroyed() {
    return this.destroyed
  }
  getZoomFactor() {
    return 1
  }
}

/** The webContents of a WebContentsView: loads are recorded and "succeed" at once, with the events Chromium sends. */
class ViewContents extends WebContents {
  url = ''
  title = ''
  loads = []
  history = []
  index = -1
  navigationHistory = {
    canGoBack: () => this.index > 0,
    canGoForward: () => this.index < this.history.length - 1,
    goBack: () => this.visit(this.history[--this.index], false),
    goForward: () => this.visit(this.history[++this.index], false),
  }
  loadURL(url) {
    note('view.loadURL', url)
    this.loads.push(url)
    this.visit(url, true)
    return Promise.resolve()
  }
  visit(url, push) {
    if (push) {
      this.history.splice(this.index + 1, Infinity, url)
      this.index = this.history.length - 1
    }
    this.url = url
    this.title = new URL(url).host
    this.emit('did-start-loading')
    this.emit('did-navigate', preventable(), url)
    this.emit('did-stop-loading')
  }
  reload() {
    this.loads.push(this.url)
    this.visit(this.url, false)
  }
  getURL() {
    return this.url
  }
  getTitle() {
    return this.title
  }
  isLoading() {
    return false
  }
  close() {
    this.destroyed = true
    this.emit('destroyed')
  }
}

export class WebContentsView {
  constructor(options) {
    note('new WebContentsView', options)
    this.options = options
    this.webContents = new ViewContents()
    this.bounds = { x: 0, y: 0, width: 0, height: 0 }
    this.visible = true
    record.views.push(this)
  }
  setBounds(bounds) {
    this.bounds = bounds
  }
  getBounds() {
    return this.bounds
  }
  setVisible(visible) {
    this.visible = visible
  }
}

async function load(url) {
  const scheme = new URL(url).protocol.slice(0, -1)
  const handler = record.protocolHandlers.get(scheme)
  if (!handler) throw Object.assign(new Error(`ERR_UNKNOWN_URL_SCHEME (-302) loading '${url}'`), { code: 'ERR_UNKNOWN_URL_SCHEME', errno: -302 })
  const response = await handler({ url, method: 'GET', headers: new Headers() })
  if (response.status !== 200) {
    throw Object.assign(new Error(`ERR_FILE_NOT_FOUND (-6) loading '${url}'`), { code: 'ERR_FILE_NOT_FOUND', errno: -6 })
  }
  return response
}

const windows = []
export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return windows.filter((w) => !w.destroyed)
  }
  static getFocusedWindow() {
    return null
  }
  static fromWebContents(contents) {
    return windows.find((w) => w.webContents === contents) ?? null
  }
  constructor(options) {
    super()
    note('new BrowserWindow', options)
    this.options = options
    this.webContents = new WebContents()
    const children = []
    this.contentView = {
      children,
      addChildView: (view) => children.push(view),
      removeChildView: (view) => {
        const at = children.indexOf(view)
        if (at >= 0) children.splice(at, 1)
      },
    }
    this.destroyed = false
    this.shown = false
    this.focused = 0
    this.loadState = 'none'
    windows.push(this)
    record.windows.push(this)
  }
  loadURL(url) {
    note('window.loadURL', url)
    this.loadState = 'loading'
    this.webContents.mainFrame.url = url
    return load(url).then(
      () => {
        this.loadState = 'loaded'
        this.emit('ready-to-show')
      },
      (error) => {
        this.loadState = 'failed'
        this.webContents.emit('did-fail-load', preventable(), error.errno, error.code, url, true)
        throw error
      },
    )
  }
  show() {
    this.shown = true
  }
  focus() {
    this.focused++
  }
  restore() {}
  maximize() {}
  isMinimized() {
    return false
  }
  isMaximized() {
    return false
  }
  isDestroyed() {
    return this.destroyed
  }
  getNormalBounds() {
    return { x: 0, y: 0, width: 1400, height: 900 }
  }
  destroy() {
    this.destroyed = true
    this.webContents.destroyed = true
    this.webContents.emit('destroyed')
  }
}

export const ipcMain = {
  handle(channel, fn) {
    if (record.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    record.ipcHandlers.set(channel, fn)
  },
  removeHandler(channel) {
    record.ipcHandlers.delete(channel)
  },
}

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    note('protocol.registerSchemesAsPrivileged', schemes)
    record.schemes.push({ schemes, beforeReady: !ready })
  },
  handle(scheme, fn) {
    note('protocol.handle', scheme)
    record.protocolHandlers.set(scheme, fn)
  },
}

const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' }
export const net = {
  async fetch(url) {
    const body = await readFile(fileURLToPath(url))
    return new Response(body, { status: 200, headers: { 'Content-Type': MIME[extname(url)] ?? 'application/octet-stream' } })
  },
}

export const dialog = {
  showErrorBox(title, content) {
    note('dialog.showErrorBox', title)
    record.dialogs.push({ title, content: String(content) })
  },
  async showOpenDialog() {
    return { canceled: true, filePaths: [] }
  },
}

export const shell = {
  async openExternal(url) {
    note('shell.openExternal', url)
    record.opened.push(url)
    // STUB_BROWSER=follow: a browser where the user signs in at once (follows the redirect back to the app).
    if (process.env.STUB_BROWSER === 'follow') void fetch(url).catch(() => undefined)
  },
  showItemInFolder(path) {
    note('shell.showItemInFolder', path)
  },
}

// STUB_KEYCHAIN=1: a keychain (reversible, for tests only); otherwise none, as on a Linux desktop without one.
export const safeStorage = process.env.STUB_KEYCHAIN === '1' ? {
  isEncryptionAvailable: () => true,
  encryptString: (plain) => Buffer.from(plain, 'utf8'),
  decryptString: (buffer) => buffer.toString('utf8'),
} : {
  isEncryptionAvailable: () => false,
  encryptString: () => {
    throw new Error('no keychain in the stand-in')
  },
  decryptString: () => {
    throw new Error('no keychain in the stand-in')
  },
}

export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] }

export const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu: () => {
    record.menus++
  },
}

export default { app, BrowserWindow, WebContentsView, ipcMain, protocol, net, dialog, shell, safeStorage, screen, Menu }
