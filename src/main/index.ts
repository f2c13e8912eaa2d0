import { app, BrowserWindow, dialog } from 'electron'
import { join } from 'node:path'
import { checkEvent } from './core/bus/event-check'
import { eventChecksWanted } from './core/bus/events'
import { createServices, type Services } from './core/services'
import { FileSecretStore } from './core/secrets/file-store'
import { detached } from './core/util/detached'
import { BACKGROUND_NICENESS, lowerRuntimeHelperThreads } from './core/util/thread-priority'
import { log } from './core/util/log'
import { safeStorageCodec } from './electron/safe-storage'
import { createAppRouter } from './ipc'
import { pointEsbuildOutsideAsar } from './electron/binaries'
import { electronFolderPicker } from './electron/folder-picker'
import { folderArguments, isFolder } from './electron/folder-args'
import { registerIpc } from './electron/ipc-bridge'
import { electronRevealer } from './electron/revealer'
import { installMenu } from './electron/menu'
import { registerAppScheme, serveRenderer } from './electron/protocol'
import { electronUrlOpener } from './electron/url-opener'
import { PreviewViews } from './electron/preview-views'
import { createMainWindow } from './electron/window'

// The composition root of the desktop app: everything below `core` is shared
// with the CLI and `hotaru serve`; this file only wires Electron to it.
if (process.env.HOTARU_DATA_DIR) app.setPath('userData', process.env.HOTARU_DATA_DIR)
pointEsbuildOutsideAsar()

/** Folders to open once the services exist: the first launch's arguments and early macOS `open-file` events. */
const pendingFolders: string[] = []
let openFolder = (path: string): void => {
  pendingFolders.push(path)
}

if (!app.requestSingleInstanceLock()) {
  // Another instance runs: it gets our arguments through `second-instance`.
  app.quit()
} else {
  registerAppScheme()
  // macOS delivers folders dropped on the dock icon or opened from Finder here, possibly before `ready`.
  app.on('open-file', (event, path) => {
    if (!isFolder(path)) return
    event.preventDefault()
    openFolder(path)
  })
  pendingFolders.push(...folderArguments(process.argv, process.cwd(), process.defaultApp === true))
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => failed('Hotaru could not start', error))
}

let failing = false
/**
 * A start that cannot complete ends the process: a windowless instance would hold
 * the single-instance lock, and every later launch would exit without a word.
 */
function failed(title: string, error: unknown): void {
  if (failing) return
  failing = true
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
  log.error(`[main] ${title}: ${message}`)
  dialog.showErrorBox(title, message)
  app.exit(1)
}

/** API keys encrypted with the OS keychain; without one, keys are refused rather than written in plain text. */
function desktopSecrets(dataDir: string): { secrets: FileSecretStore; secretsProtection: string; secretsEncrypted: boolean } {
  const codec = safeStorageCodec() ?? {
    protection: 'unavailable (no OS keychain)',
    encrypted: false,
    encode: (): string => {
      throw new Error('no OS keychain is available to encrypt the key; set it in an environment variable instead')
    },
    decode: (): string => {
      throw new Error('no OS keychain is available to decrypt the key')
    },
  }
  return {
    secrets: new FileSecretStore(join(dataDir, 'secrets.bin.json'), codec),
    secretsProtection: codec.protection,
    secretsEncrypted: codec.encrypted ?? false,
  }
}

function start(): void {
  // The preview pages need the services (URL policy, console log); the services need them as the agent's browser.
  const preview: { pages?: PreviewViews } = {}
  const services: Services = createServices({
    dataDir: app.getPath('userData'),
    transport: 'electron',
    // The router below loads every contract schema anyway, so the check costs no extra start-up here.
    checkEvent: eventChecksWanted(process.env) ? checkEvent : undefined,
    ownProcesses: true,
    folderPicker: electronFolderPicker,
    dropPaths: true,
    revealer: electronRevealer,
    urlOpener: electronUrlOpener,
    previewDriver: (options) => {
      if (!preview.pages) throw new Error('the preview pages are not ready yet')
      return preview.pages.driver(options)
    },
    ...desktopSecrets(app.getPath('userData')),
  })
  const previewOf = (projectId: string) => {
    const project = services.projects.find(projectId)
    return project ? services.previews.for(project) : undefined
  }
  const previewPages = new PreviewViews({
    bus: services.bus,
    allows: (projectId, url) => previewOf(projectId)?.urls.allows(url) ?? false,
    record: (projectId, entry) => previewOf(projectId)?.record(entry),
    window: () => BrowserWindow.getAllWindows()[0],
  })
  preview.pages = previewPages
  // V8's helper threads mostly serve the background workers (snapshot walks, the file watch).
  lowerRuntimeHelperThreads(BACKGROUND_NICENESS)
  const router = createAppRouter(services)
  const ipc = registerIpc(services, router, (contents) => {
    const owner = BrowserWindow.fromWebContents(contents)
    return owner ? previewPages.surfaceFor(owner) : undefined
  })
  serveRenderer(join(__dirname, '../renderer'))
  services.projects.restore()

  const windowOptions = { onLoadFailure: (message: string) => failed('Hotaru could not load its window', message) }
  let window = createMainWindow(services.storage.kv, windowOptions)
  // While the window loads: what the first turn would otherwise load in its middle.
  detached('warm-up', services.warmUp())
  const showWindow = (): void => {
    if (window.isDestroyed()) window = createMainWindow(services.storage.kv, windowOptions)
    if (window.isMinimized()) window.restore()
    window.focus()
  }
  openFolder = (path) => {
    try {
      services.projects.openFolder(path)
      showWindow()
    } catch (error) {
      dialog.showErrorBox('Cannot open the folder', `${path}: ${(error as Error).message}`)
    }
  }
  for (const path of pendingFolders.splice(0)) openFolder(path)

  installMenu({
    openFolder: () => {
      electronFolderPicker
        .pickFolder()
        .then((path) => {
          if (path) openFolder(path)
        })
        .catch((error: unknown) => dialog.showErrorBox('Cannot open the folder', (error as Error).message))
    },
  })

  // A second launch (`hotaru ~/projects/app`, "Open with"): its folders open as tabs here.
  app.on('second-instance', (_event, argv, workingDirectory) => {
    const folders = folderArguments(argv, workingDirectory, process.defaultApp === true)
    for (const path of folders) openFolder(path)
    if (folders.length === 0) showWindow()
  })
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) window = createMainWindow(services.storage.kv, windowOptions)
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  let quitting = false
  app.on('before-quit', (event) => {
    if (quitting) return
    quitting = true
    event.preventDefault()
    ipc.dispose()
    previewPages.dispose()
    services
      .dispose()
      .then(() => app.exit(0))
      .catch((error: unknown) => {
        log.error(`[main] shutdown: ${(error as Error).message}`)
        app.exit(1)
      })
  })
}
