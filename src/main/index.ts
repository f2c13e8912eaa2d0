import { app, BrowserWindow, dialog } from 'electron'
import { join } from 'node:path'
import { createServices, type Services } from './core/services'
import { FileSecretStore } from './core/secrets/file-store'
import { safeStorageCodec } from './electron/safe-storage'
import { createAppRouter } from './ipc'
import { electronFolderPicker } from './electron/folder-picker'
import { registerIpc } from './electron/ipc-bridge'
import { electronRevealer } from './electron/revealer'
import { installMenu } from './electron/menu'
import { electronSqliteBinding } from './electron/native-binding'
import { registerAppScheme, serveRenderer } from './electron/protocol'
import { createMainWindow } from './electron/window'

// The composition root of the desktop app: everything below `core` is shared
// with the CLI and `hotaru serve`; this file only wires Electron to it.
if (process.env.HOTARU_DATA_DIR) app.setPath('userData', process.env.HOTARU_DATA_DIR)

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  registerAppScheme()
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      dialog.showErrorBox('Hotaru could not start', error instanceof Error ? error.message : String(error))
      app.exit(1)
    })
}

/** API keys encrypted with the OS keychain; without one, keys are refused rather than written in plain text. */
function desktopSecrets(dataDir: string): { secrets: FileSecretStore; secretsProtection: string } {
  const codec = safeStorageCodec() ?? {
    protection: 'unavailable (no OS keychain)',
    encode: (): string => {
      throw new Error('no OS keychain is available to encrypt the key; set it in an environment variable instead')
    },
    decode: (): string => {
      throw new Error('no OS keychain is available to decrypt the key')
    },
  }
  return { secrets: new FileSecretStore(join(dataDir, 'secrets.bin.json'), codec), secretsProtection: codec.protection }
}

async function start(): Promise<void> {
  const services: Services = createServices({
    dataDir: app.getPath('userData'),
    transport: 'electron',
    ownProcesses: true,
    nativeBinding: electronSqliteBinding(app.getAppPath(), process.resourcesPath),
    folderPicker: electronFolderPicker,
    dropPaths: true,
    revealer: electronRevealer,
    ...desktopSecrets(app.getPath('userData')),
  })
  const router = createAppRouter(services)
  const ipc = registerIpc(services, router)
  serveRenderer(join(__dirname, '../renderer'))
  services.projects.restore()

  let window = createMainWindow(services.storage.kv)
  installMenu({
    openFolder: () => {
      electronFolderPicker
        .pickFolder()
        .then((path) => {
          if (path) services.projects.openFolder(path)
        })
        .catch((error: unknown) => dialog.showErrorBox('Cannot open the folder', (error as Error).message))
    },
  })

  app.on('second-instance', () => {
    if (window.isDestroyed()) return
    if (window.isMinimized()) window.restore()
    window.focus()
  })
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) window = createMainWindow(services.storage.kv)
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
    services
      .dispose()
      .catch((error: unknown) => console.error('[quit] some resources failed to close:', error))
      .finally(() => app.exit(0))
  })
}
