import { app, BrowserWindow, WebContentsView, type WebContents } from 'electron'
import type { PreviewBounds, PreviewNavigation } from '@shared/ipc/preview'
import { previewTarget } from '@shared/preview-url'
import type { PreviewConsoleEntry } from '@shared/schema/preview'
import type { EventBus } from '../core/bus/bus'
import type { Subscription } from '../core/util/disposable'
import type { BrowserDriver, DriverFactory, ElementTarget, ScreenshotOptions } from '../core/preview'
import { log } from '../core/util/log'
import type { PreviewSurface } from '../ipc'
import { LOCATE_ELEMENT } from '../core/preview/page-scripts'
import { electronUrlOpener } from './url-opener'

/** Previewed pages share one session, apart from the app's: their cookies and storage never meet the app's. */
export const PREVIEW_PARTITION = 'persist:hotaru-preview'
/** The size a page has before the pane reports one (the agent may drive a page the user has not opened). */
const DEFAULT_BOUNDS = { x: 0, y: 0, width: 1280, height: 800 }

interface Page {
  projectId: string
  view: WebContentsView
  window: BrowserWindow
  /** The preview's URL policy, for the page's own navigations. */
  allows(url: string): boolean
}

const LEVELS: Record<string, PreviewConsoleEntry['level']> = { error: 'error', warning: 'warning', info: 'info', debug: 'debug' }

export interface PreviewViewsDeps {
  bus: EventBus
  /** The preview's URL policy and console of a project (the core's preview service). */
  allows(projectId: string, url: string): boolean
  record(projectId: string, entry: PreviewConsoleEntry): void
  /** The window a page opens in when the agent drives one the user has not opened. */
  window(): BrowserWindow | undefined
}

/**
 * The desktop app's preview pages: one `WebContentsView` per previewed folder, in its
 * own session, with no preload and no Node, laid over the pane's rectangle. Page
 * navigations follow the preview's URL policy; everything else opens in the system
 * browser. The same page is the agent's browser in the app.
 */
export class PreviewViews {
  private readonly pages = new Map<string, Page>()
  private readonly closed: Subscription

  constructor(private readonly deps: PreviewViewsDeps) {
    // A closed project or worktree takes its page with it.
    this.closed = deps.bus.on('project:closed', ({ projectId }) => this.close(projectId))
  }

  /** The surface the renderer of `window` shows previews on. */
  surfaceFor(window: BrowserWindow): PreviewSurface {
    return {
      open: async (projectId, url, allows) => {
        const page = this.page(projectId, window)
        page.allows = allows
        this.load(page, url.href)
        return null
      },
      bounds: (projectId, bounds) => this.place(projectId, bounds),
      go: (projectId, action) => {
        const contents = this.pages.get(projectId)?.view.webContents
        if (!contents) return
        if (action === 'reload') contents.reload()
        else if (action === 'back' && contents.navigationHistory.canGoBack()) contents.navigationHistory.goBack()
        else if (action === 'forward' && contents.navigationHistory.canGoForward()) contents.navigationHistory.goForward()
      },
      close: (projectId) => this.close(projectId),
      openExternal: (url) => electronUrlOpener.open(url),
    }
  }

  /** The agent's browser in the app: the previewed folder's own page. */
  readonly driver: DriverFactory = async (options) => {
    if (!options.projectId) throw new Error('the desktop app drives a project’s own preview page: name the project')
    const window = this.pages.get(options.projectId)?.window ?? this.deps.window()
    if (!window) throw new Error('no window is open to show the preview in')
    const page = this.page(options.projectId, window)
    page.allows = options.allows
    return pageDriver(page)
  }

  dispose(): void {
    this.closed.dispose()
    for (const projectId of [...this.pages.keys()]) this.close(projectId)
  }

  private page(projectId: string, window: BrowserWindow): Page {
    const existing = this.pages.get(projectId)
    if (existing && !existing.view.webContents.isDestroyed()) return existing
    const view = new WebContentsView({
      // Written out here so reviewers and the security scanner see them: the page is not ours.
      webPreferences: {
        partition: PREVIEW_PARTITION,
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        experimentalFeatures: false,
        navigateOnDragDrop: false,
        spellcheck: false,
      },
    })
    view.setBounds(DEFAULT_BOUNDS)
    view.setVisible(false)
    window.contentView.addChildView(view)
    const page: Page = { projectId, view, window, allows: (url) => this.deps.allows(projectId, url) }
    this.pages.set(projectId, page)
    this.guard(page)
    window.once('closed', () => this.close(projectId))
    return page
  }

  private load(page: Page, url: string): void {
    page.view.webContents.loadURL(url).catch((error: unknown) => {
      // A refused connection is reported by did-fail-load (the pane shows it); a replaced load is no failure.
      const { code } = error as { code?: string }
      if (code !== 'ERR_ABORTED') log.info(`[preview] ${url}: ${(error as Error).message}`)
    })
  }

  private place(projectId: string, bounds: PreviewBounds | null): void {
    const page = this.pages.get(projectId)
    if (!page || page.view.webContents.isDestroyed()) return
    if (!bounds) {
      page.view.setVisible(false)
      return
    }
    // The renderer measures in CSS pixels of the app's page; views are placed in window (DIP) coordinates.
    const zoom = page.window.webContents.getZoomFactor()
    page.view.setBounds({
      x: Math.round(bounds.x * zoom),
      y: Math.round(bounds.y * zoom),
      width: Math.round(bounds.width * zoom),
      height: Math.round(bounds.height * zoom),
    })
    page.view.setVisible(true)
  }

  private close(projectId: string): void {
    const page = this.pages.get(projectId)
    if (!page) return
    this.pages.delete(projectId)
    if (!page.window.isDestroyed()) page.window.contentView.removeChildView(page.view)
    if (!page.view.webContents.isDestroyed()) page.view.webContents.close()
  }

  /** Where the page goes when it navigates by itself: the preview's own pages load, the web opens in the system browser. */
  private follow(page: Page, url: string): 'load' | 'external' | 'refused' {
    const target = previewTarget(url, (candidate) => page.allows(candidate))
    if (target.kind === 'external') {
      electronUrlOpener.open(target.url).catch((error: unknown) => log.warn(`[preview] could not open ${url} in the browser: ${(error as Error).message}`))
    }
    if (target.kind === 'refused') log.warn(`[preview] navigation refused: ${target.reason}`)
    return target.kind
  }

  private guard(page: Page): void {
    const contents = page.view.webContents
    contents.on('will-navigate', (event, url) => {
      if (this.follow(page, url) !== 'load') event.preventDefault()
    })
    contents.on('will-redirect', (event, url) => {
      if (!page.allows(url)) event.preventDefault()
    })
    contents.on('will-attach-webview', (event) => event.preventDefault())
    // No new windows: a page of the preview opens in the pane, anything else in the system browser.
    contents.setWindowOpenHandler(({ url }) => {
      if (this.follow(page, url) === 'load') this.load(page, url)
      return { action: 'deny' }
    })
    contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
    contents.session.setPermissionCheckHandler(() => false)
    contents.on('console-message', (event) => {
      this.deps.record(page.projectId, {
        kind: 'console',
        level: LEVELS[event.level] ?? 'log',
        text: event.message,
        ...(event.sourceId ? { url: event.sourceId } : {}),
        ...(event.lineNumber ? { line: event.lineNumber } : {}),
        at: Date.now(),
      })
    })
    const report = (patch: Partial<PreviewNavigation> = {}): void => this.report(page, contents, patch)
    contents.on('did-start-loading', () => report({ loading: true }))
    contents.on('did-stop-loading', () => report({ loading: false }))
    contents.on('did-navigate', () => report())
    contents.on('did-navigate-in-page', () => report())
    contents.on('page-title-updated', () => report())
    contents.on('did-fail-load', (_event, code, description, url, isMainFrame) => {
      // -3 (ERR_ABORTED) is a load replaced by another.
      if (!isMainFrame || code === -3) return
      report({ loading: false, error: `${url} could not be loaded: ${description}` })
      this.deps.record(page.projectId, { kind: 'request', level: 'error', text: `${description} (${code})`, url, at: Date.now() })
    })
    contents.on('render-process-gone', (_event, details) => report({ loading: false, error: `The page's process ended (${details.reason})` }))
  }

  private report(page: Page, contents: WebContents, patch: Partial<PreviewNavigation>): void {
    if (contents.isDestroyed()) return
    const navigation: PreviewNavigation = {
      url: contents.getURL(),
      title: contents.getTitle(),
      canGoBack: contents.navigationHistory.canGoBack(),
      canGoForward: contents.navigationHistory.canGoForward(),
      loading: contents.isLoading(),
      ...patch,
    }
    this.deps.bus.publish('preview:navigated', navigation, page.projectId)
  }
}

/** The agent's tools on the pane's own page: what they see and click is what the user sees. */
function pageDriver(page: Page): BrowserDriver {
  const contents = (): WebContents => {
    if (page.view.webContents.isDestroyed()) throw new Error('the preview page was closed')
    return page.view.webContents
  }
  const locate = async (target: ElementTarget, focus = false): Promise<{ x: number; y: number; width: number; height: number }> => {
    const box = (await contents().executeJavaScript(`${LOCATE_ELEMENT}(${JSON.stringify({ ...target, focus })})`)) as { x: number; y: number; width: number; height: number } | null
    if (!box) throw new Error(`nothing on the page matches ${'selector' in target ? `the selector ${target.selector}` : `the text "${target.text}"`}`)
    return box
  }
  const loaded = (run: () => Promise<void> | void): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const c = contents()
      const done = (): void => {
        c.off('did-fail-load', failed)
        resolve()
      }
      const failed = (_event: unknown, code: number, description: string, _url: string, isMainFrame: boolean): void => {
        if (!isMainFrame || code === -3) return
        c.off('did-stop-loading', done)
        reject(new Error(`the page could not be loaded: ${description}`))
      }
      c.once('did-stop-loading', done)
      c.on('did-fail-load', failed)
      Promise.resolve(run()).catch(reject)
    })
  return {
    async navigate(url) {
      if (!page.allows(url)) throw new Error(`the preview may not load ${url}: only the project's own loopback ports`)
      await contents().loadURL(url)
    },
    url: async () => contents().getURL(),
    reload: () => loaded(() => contents().reload()),
    async screenshot(options: ScreenshotOptions = {}) {
      const box = options.target ? await locate(options.target) : undefined
      const rect = box ? { x: Math.floor(box.x), y: Math.floor(box.y), width: Math.ceil(box.width), height: Math.ceil(box.height) } : undefined
      // stayHidden: a page the pane does not show is captured without being shown.
      let image = await contents().capturePage(rect, { stayHidden: true })
      const maxWidth = options.maxWidth ?? 1280
      if (image.getSize().width > maxWidth) image = image.resize({ width: maxWidth, quality: 'good' })
      const { width, height } = image.getSize()
      return { mediaType: 'image/jpeg', data: image.toJPEG(options.quality ?? 70), width, height, url: contents().getURL() }
    },
    async click(target) {
      const box = await locate(target)
      const x = Math.round(box.x + box.width / 2)
      const y = Math.round(box.y + box.height / 2)
      const c = contents()
      c.sendInputEvent({ type: 'mouseMove', x, y })
      c.sendInputEvent({ type: 'mouseDown', x, y, button: 'left', clickCount: 1 })
      c.sendInputEvent({ type: 'mouseUp', x, y, button: 'left', clickCount: 1 })
    },
    async type(target, text, options = {}) {
      await locate(target, true)
      const c = contents()
      for (const char of text) c.sendInputEvent({ type: 'char', keyCode: char })
      if (options.submit) {
        c.sendInputEvent({ type: 'keyDown', keyCode: 'Enter' })
        c.sendInputEvent({ type: 'char', keyCode: '\r' })
        c.sendInputEvent({ type: 'keyUp', keyCode: 'Enter' })
      }
    },
    async memory() {
      const pid = contents().getOSProcessId()
      const metric = app.getAppMetrics().find((m) => m.pid === pid)
      return { bytes: (metric?.memory.workingSetSize ?? 0) * 1024, processes: metric ? 1 : 0 }
    },
    // The page is the user's pane: the agent letting go of it does not close it.
    close: async () => undefined,
  }
}
