import { BrowserWindow } from 'electron'
import { join } from 'node:path'
import type { KvRepo } from '../core/storage/kv-repo'
import { APP_ORIGIN } from '../ipc/sender'
import { isAllowedPermission } from './policy'
import { loadWindowState, trackWindowState } from './window-state'

export function createMainWindow(kv: KvRepo): BrowserWindow {
  const state = loadWindowState(kv)
  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 720,
    minHeight: 480,
    ...state?.bounds,
    show: false,
    title: 'Hotaru',
    backgroundColor: '#1e1e1e',
    // Written out here (not built by a helper) so reviewers and the security scanner see them.
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
      spellcheck: true,
    },
  })
  if (state?.maximized) window.maximize()
  trackWindowState(window, kv)
  guardContents(window)
  window.once('ready-to-show', () => window.show())
  window.loadURL(`${APP_ORIGIN}/index.html`).catch((error: unknown) => {
    console.error('[window] the app page did not load:', error)
  })
  return window
}

/** No navigation away from our page, no new windows, no permission grants. */
function guardContents(window: BrowserWindow): void {
  const contents = window.webContents
  contents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  // New windows are never created; links meant for the OS browser go through an explicit, validated action.
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
  const session = contents.session
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(isAllowedPermission(permission)))
  session.setPermissionCheckHandler((_contents, permission) => isAllowedPermission(permission))
}
