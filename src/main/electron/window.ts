import { BrowserWindow } from 'electron'
import { join } from 'node:path'
import type { KvRepo } from '../core/storage/kv-repo'
import { APP_ORIGIN } from '../ipc/sender'
import { log } from '../core/util/log'
import { isAllowedPermission, isExternalWebLink } from './policy'
import { electronUrlOpener } from './url-opener'
import { loadWindowState, trackWindowState } from './window-state'

export interface MainWindowOptions {
  /** The page could not be loaded (missing build, broken protocol handler): the app has nothing to show. */
  onLoadFailure(message: string): void
}

export function createMainWindow(kv: KvRepo, options: MainWindowOptions): BrowserWindow {
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
  const page = `${APP_ORIGIN}/index.html`
  window.webContents.on('did-fail-load', (_event, code, description, url, isMainFrame) => {
    // -3 (ERR_ABORTED) is a navigation replaced by another, not a failure.
    if (isMainFrame && code !== -3) options.onLoadFailure(`${description} (${code}) loading ${url}`)
  })
  window.loadURL(page).catch((error: unknown) => {
    const { code } = error as { code?: string }
    if (code !== 'ERR_ABORTED') options.onLoadFailure(`${(error as Error).message} loading ${page}`)
  })
  return window
}

/** A link the user clicked (markdown, window.open) goes to the OS browser when it is http(s); anything else is dropped. */
function openInBrowser(url: string): void {
  if (!isExternalWebLink(url)) {
    log.warn(`[window] link not opened: ${url.slice(0, 200)} is not an http(s) link`)
    return
  }
  electronUrlOpener.open(new URL(url)).catch((error: unknown) => {
    log.warn(`[window] could not open ${url} in the browser: ${(error as Error).message}`)
  })
}

/** No navigation away from our page, no new windows, no permission grants; web links open in the OS browser. */
function guardContents(window: BrowserWindow): void {
  const contents = window.webContents
  contents.on('will-navigate', (event, url) => {
    if (url.startsWith(`${APP_ORIGIN}/`)) return
    event.preventDefault()
    openInBrowser(url)
  })
  contents.on('will-redirect', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  // New windows are never created: http(s) links go to the OS browser, everything else is denied.
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowser(url)
    return { action: 'deny' }
  })
  const session = contents.session
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(isAllowedPermission(permission)))
  session.setPermissionCheckHandler((_contents, permission) => isAllowedPermission(permission))
}
