// Child process of the shell tests: boots a built main (argv[2]) against the
// electron stand-in and answers the test's commands over the IPC channel.
import { app, preventable, record } from 'electron'
import { pathToFileURL } from 'node:url'

const send = (message) => new Promise((resolve) => process.send(message, undefined, {}, () => resolve()))

record.onExit = (code) => {
  // Flush the exit notice before the process goes, so the test knows the code came from app.exit.
  void send({ type: 'exit', code, dialogs: record.dialogs }).finally(() => process.exit(code))
}

const mainWindow = () => {
  const window = record.windows.at(-1)
  if (!window) throw new Error('no window was created')
  return window
}

async function settled(window) {
  for (let i = 0; i < 200 && window.loadState === 'loading'; i++) await new Promise((r) => setTimeout(r, 10))
}

function snapshot() {
  return {
    calls: record.calls,
    schemes: record.schemes,
    protocols: [...record.protocolHandlers.keys()],
    handlers: [...record.ipcHandlers.keys()].sort(),
    windows: record.windows.map((w) => ({
      webPreferences: w.options.webPreferences,
      show: w.options.show,
      shown: w.shown,
      focused: w.focused,
      loadState: w.loadState,
      url: w.webContents.mainFrame.url,
      hasOpenHandler: typeof w.webContents.openHandler === 'function',
      listens: w.webContents.eventNames(),
    })),
    dialogs: record.dialogs,
    opened: record.opened,
    menus: record.menus,
    env: { ESBUILD_BINARY_PATH: process.env.ESBUILD_BINARY_PATH ?? null },
  }
}

const previewView = (index) => {
  const view = record.views[index]
  if (!view) throw new Error(`no preview view ${index}`)
  return view
}

const commands = {
  snapshot,
  /** The preview pages (WebContentsViews) the app made, and where they are. */
  previewViews() {
    const children = record.windows.at(-1)?.contentView.children ?? []
    return record.views.map((view) => ({
      webPreferences: view.options.webPreferences,
      bounds: view.bounds,
      visible: view.visible,
      inWindow: children.includes(view),
      loads: view.webContents.loads,
      closed: view.webContents.destroyed,
      hasOpenHandler: typeof view.webContents.openHandler === 'function',
      permission: view.webContents.session.permissionCheck?.(view.webContents, 'geolocation') ?? null,
    }))
  },
  /** The page of preview view `index` navigates by itself (a link, a script). */
  previewNavigate({ index, url }) {
    const e = preventable()
    previewView(index).webContents.emit('will-navigate', e, url)
    return { prevented: e.defaultPrevented }
  },
  previewWindowOpen({ index, url }) {
    return previewView(index).webContents.openHandler({ url, frameName: '', features: '', disposition: 'foreground-tab' })
  },
  previewConsole({ index, level, message }) {
    previewView(index).webContents.emit('console-message', { level, message, sourceId: 'http://127.0.0.1/app.js', lineNumber: 3 })
    return null
  },
  async ready() {
    app.markReady()
    await new Promise((r) => setImmediate(r))
    const window = record.windows.at(-1)
    if (window) await settled(window)
    return snapshot()
  },
  emit({ event, args }) {
    const e = preventable()
    app.emit(event, e, ...args)
    return { prevented: e.defaultPrevented }
  },
  async request({ url }) {
    const handler = record.protocolHandlers.get(new URL(url).protocol.slice(0, -1))
    const response = await handler({ url, method: 'GET', headers: new Headers() })
    const text = await response.text()
    return { status: response.status, headers: Object.fromEntries(response.headers), length: text.length, start: text.slice(0, 64) }
  },
  windowOpen({ url }) {
    return mainWindow().webContents.openHandler({ url, frameName: '', features: '', disposition: 'foreground-tab' })
  },
  navigate({ url }) {
    const e = preventable()
    mainWindow().webContents.emit('will-navigate', e, url)
    return { prevented: e.defaultPrevented }
  },
  async invoke({ channel, payload, frameUrl }) {
    const handler = record.ipcHandlers.get(channel)
    if (!handler) throw new Error(`no handler for ${channel}`)
    const contents = mainWindow().webContents
    const frame = frameUrl === undefined ? contents.mainFrame : { url: frameUrl }
    return handler({ sender: contents, senderFrame: frame }, payload)
  },
  quit() {
    app.quit()
    return null
  },
}

process.on('message', (message) => {
  const run = async () => commands[message.type](message)
  run().then(
    (value) => send({ id: message.id, ok: true, value }),
    (error) => send({ id: message.id, ok: false, error: error instanceof Error ? error.stack : String(error) }),
  )
})

try {
  await import(pathToFileURL(process.argv[2]).href)
  await send({ type: 'booted' })
} catch (error) {
  await send({ type: 'boot-error', error: error instanceof Error ? error.stack : String(error) })
  process.exit(70)
}
