import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import CDP from 'chrome-remote-interface'
import type { PreviewConsoleEntry } from '@shared/schema/preview'
import { descendants, killTree, treeTag, TREE_VARIABLE } from '../process/tree'
import { startProcess, type StartedProcess } from '../process/spawn'
import { log } from '../util/log'
import type { BrowserDriver, DriverOptions, ElementTarget, Screenshot, ScreenshotOptions } from './driver'
import { PreviewErrorNames, previewError } from './errors'
import { LOCATE_ELEMENT } from './page-scripts'

/** The viewport the headless page has: a common laptop size. */
export const VIEWPORT = { width: 1280, height: 800 }
const DEFAULT_MAX_WIDTH = 1280
const DEFAULT_QUALITY = 70
/** How long Chromium may take to open its DevTools endpoint, and a page to fire its load event. */
const LAUNCH_TIMEOUT_MS = 30_000
const LOAD_TIMEOUT_MS = 30_000

interface Box {
  x: number
  y: number
  width: number
  height: number
  pageX: number
  pageY: number
  tag: string
}

const CONSOLE_LEVELS: Record<string, PreviewConsoleEntry['level']> = {
  error: 'error',
  assert: 'error',
  warning: 'warning',
  info: 'info',
  debug: 'debug',
}

/** Chromium refuses to run as root without `--no-sandbox` (containers, CI). */
function chromiumArgs(profile: string): string[] {
  return [
    '--headless',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--mute-audio',
    '--hide-scrollbars',
    `--window-size=${VIEWPORT.width},${VIEWPORT.height}`,
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    'about:blank',
  ]
}

/** Reads Chromium's stderr until it names its DevTools endpoint. */
function devtoolsEndpoint(child: StartedProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(() => done(new Error(`Chromium did not open its DevTools endpoint within ${LAUNCH_TIMEOUT_MS / 1000} s: ${seen.slice(-500)}`)), LAUNCH_TIMEOUT_MS)
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString()
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen)
      if (match?.[1]) done(undefined, match[1])
    }
    const onExit = (code: number | null): void => done(new Error(`Chromium exited (${String(code)}) before it opened DevTools: ${seen.slice(-500)}`))
    const onError = (error: Error): void => done(error)
    function done(error: Error | undefined, url?: string): void {
      clearTimeout(timer)
      child.stderr?.off('data', onData)
      child.off('exit', onExit)
      child.off('error', onError)
      if (error) reject(error)
      else resolve(url ?? '')
    }
    child.stderr?.on('data', onData)
    child.once('exit', onExit)
    child.once('error', onError)
  })
}

/**
 * Drives a headless system Chromium over the DevTools protocol: one browser per preview, its own
 * throwaway profile, a fixed viewport. Document requests the preview may not load are failed
 * before they leave the browser; console messages, exceptions and failed requests go to `onConsole`.
 */
export class CdpDriver implements BrowserDriver {
  private readonly requests = new Map<string, string>()

  private constructor(
    private readonly client: CDP.Client,
    private readonly child: StartedProcess,
    private readonly tag: string,
    private readonly profile: string,
    private readonly options: DriverOptions,
  ) {}

  static async launch(executable: string, options: DriverOptions): Promise<CdpDriver> {
    const profile = mkdtempSync(join(tmpdir(), 'hotaru-preview-browser-'))
    const tag = treeTag()
    const child = await startProcess(executable, chromiumArgs(profile), { detached: process.platform !== 'win32', stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, [TREE_VARIABLE]: tag } })
    try {
      const endpoint = new URL(await devtoolsEndpoint(child))
      // Its stderr keeps coming (GPU and font warnings): read and dropped so the pipe never fills.
      child.stderr?.resume()
      const port = Number(endpoint.port)
      const targets = await CDP.List({ host: endpoint.hostname, port })
      const page = targets.find((t) => t.type === 'page')
      const client = await CDP({ host: endpoint.hostname, port, ...(page ? { target: page.id } : {}), local: true })
      const driver = new CdpDriver(client, child, tag, profile, options)
      await driver.prepare()
      return driver
    } catch (error) {
      if (child.pid !== undefined) await killTree(child.pid, { tag, graceMs: 500 })
      rmSync(profile, { recursive: true, force: true })
      throw error
    }
  }

  private async prepare(): Promise<void> {
    const { client } = this
    client.on('Runtime.consoleAPICalled', (event) => {
      const frame = event.stackTrace?.callFrames[0]
      this.options.onConsole({
        kind: 'console',
        level: CONSOLE_LEVELS[event.type] ?? 'log',
        text: event.args.map((arg) => (arg.value !== undefined ? (typeof arg.value === 'string' ? arg.value : JSON.stringify(arg.value)) : (arg.description ?? arg.type))).join(' '),
        ...(frame?.url ? { url: frame.url, line: frame.lineNumber + 1 } : {}),
        at: Date.now(),
      })
    })
    client.on('Runtime.exceptionThrown', ({ exceptionDetails: details }) => {
      this.options.onConsole({
        kind: 'exception',
        level: 'error',
        text: details.exception?.description ?? details.text,
        ...(details.url ? { url: details.url, line: details.lineNumber + 1 } : {}),
        at: Date.now(),
      })
    })
    client.on('Network.requestWillBeSent', ({ requestId, request }) => {
      this.requests.set(requestId, request.url)
    })
    client.on('Network.responseReceived', ({ response }) => {
      if (response.status < 400 || browserOwn(response.url)) return
      this.options.onConsole({ kind: 'request', level: 'error', text: `${response.status} ${response.statusText || ''} ${response.url}`.replace(/\s+/g, ' ').trim(), url: response.url, at: Date.now() })
    })
    client.on('Network.loadingFinished', ({ requestId }) => {
      this.requests.delete(requestId)
    })
    client.on('Network.loadingFailed', ({ requestId, errorText, canceled }) => {
      const url = this.requests.get(requestId)
      this.requests.delete(requestId)
      if (canceled || (url && browserOwn(url))) return
      this.options.onConsole({ kind: 'request', level: 'error', text: `${errorText}${url ? ` ${url}` : ''}`, ...(url ? { url } : {}), at: Date.now() })
    })
    // A page may not navigate itself (a link, a redirect) to a URL the preview may not load.
    client.on('Fetch.requestPaused', ({ requestId, request }) => {
      const allowed = this.options.allows(request.url)
      const reply = allowed ? client.Fetch.continueRequest({ requestId }) : client.Fetch.failRequest({ requestId, errorReason: 'BlockedByClient' })
      if (!allowed) this.options.onConsole({ kind: 'request', level: 'warning', text: `navigation to ${request.url} was refused: the preview loads only the project's own loopback ports`, url: request.url, at: Date.now() })
      reply.catch((error: unknown) => log.warn(`[preview] request ${request.url} not answered: ${(error as Error).message}`))
    })
    await Promise.all([
      client.Page.enable(),
      client.Runtime.enable(),
      client.Network.enable({}),
      client.Fetch.enable({ patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }] }),
      client.Emulation.setDeviceMetricsOverride({ ...VIEWPORT, deviceScaleFactor: 1, mobile: false }),
    ])
  }

  async navigate(url: string): Promise<void> {
    if (!this.options.allows(url)) {
      throw previewError(PreviewErrorNames.UrlRefused, `${url} is not one of the project's own loopback ports; the preview loads only those and URLs the user typed`)
    }
    const loaded = this.nextLoad()
    const result = await this.client.Page.navigate({ url })
    if (result.errorText) {
      loaded.cancel()
      throw previewError(PreviewErrorNames.NotRunning, `${url} did not load: ${result.errorText}`)
    }
    // A same-document navigation (a hash change) fires no load event.
    if (result.loaderId) await loaded.promise
    else loaded.cancel()
  }

  async url(): Promise<string> {
    const { result } = await this.client.Runtime.evaluate({ expression: 'location.href', returnByValue: true })
    return String(result.value)
  }

  async reload(): Promise<void> {
    const loaded = this.nextLoad()
    await this.client.Page.reload({ ignoreCache: true })
    await loaded.promise
  }

  async screenshot(options: ScreenshotOptions = {}): Promise<Screenshot> {
    const maxWidth = options.maxWidth ?? DEFAULT_MAX_WIDTH
    let clip: { x: number; y: number; width: number; height: number }
    if (options.target) {
      const box = await this.locate(options.target)
      clip = { x: box.pageX, y: box.pageY, width: box.width, height: box.height }
    } else {
      const { cssVisualViewport: view } = await this.client.Page.getLayoutMetrics()
      clip = { x: view.pageX, y: view.pageY, width: view.clientWidth, height: view.clientHeight }
    }
    const scale = Math.min(1, maxWidth / clip.width)
    const shot = await this.client.Page.captureScreenshot({ format: 'jpeg', quality: options.quality ?? DEFAULT_QUALITY, clip: { ...clip, scale }, captureBeyondViewport: options.target !== undefined })
    return {
      mediaType: 'image/jpeg',
      data: Buffer.from(shot.data, 'base64'),
      width: Math.round(clip.width * scale),
      height: Math.round(clip.height * scale),
      url: await this.url(),
    }
  }

  async click(target: ElementTarget): Promise<void> {
    const box = await this.locate(target)
    const x = box.x + box.width / 2
    const y = box.y + box.height / 2
    const input = this.client.Input
    await input.dispatchMouseEvent({ type: 'mouseMoved', x, y })
    await input.dispatchMouseEvent({ type: 'mousePressed', x, y, button: 'left', clickCount: 1 })
    await input.dispatchMouseEvent({ type: 'mouseReleased', x, y, button: 'left', clickCount: 1 })
  }

  async type(target: ElementTarget, text: string, options: { submit?: boolean } = {}): Promise<void> {
    await this.locate(target, { focus: true })
    // One input event per character would be closer to typing but costs a round trip each; pages see the same value.
    if (text.length > 0) await this.client.Input.insertText({ text })
    if (options.submit) {
      const enter = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13 }
      await this.client.Input.dispatchKeyEvent({ type: 'keyDown', ...enter, text: '\r' })
      await this.client.Input.dispatchKeyEvent({ type: 'keyUp', ...enter })
    }
  }

  /**
   * Memory of the browser and every process it started (Linux; 0 elsewhere): the sum of their
   * proportional set sizes, so libraries and memory the processes share count once, not per process.
   */
  memory(): Promise<{ bytes: number; processes: number }> {
    const pid = this.child.pid
    if (pid === undefined || process.platform !== 'linux') return Promise.resolve({ bytes: 0, processes: 0 })
    let total = 0
    const ids = [pid, ...descendants(pid)]
    for (const id of ids) {
      const rollup = readProc(`/proc/${id}/smaps_rollup`)
      const match = rollup ? /^Pss:\s+(\d+) kB/m.exec(rollup) : null
      if (match?.[1]) total += Number(match[1]) * 1024
    }
    return Promise.resolve({ bytes: total, processes: ids.length })
  }

  async close(): Promise<void> {
    try {
      await this.client.close()
    } catch (error) {
      log.warn(`[preview] DevTools connection did not close cleanly: ${(error as Error).message}`)
    }
    if (this.child.pid !== undefined) await killTree(this.child.pid, { tag: this.tag, graceMs: 1000 })
    rmSync(this.profile, { recursive: true, force: true })
  }

  private async locate(target: ElementTarget, options: { focus?: boolean } = {}): Promise<Box> {
    const { result, exceptionDetails } = await this.client.Runtime.evaluate({
      expression: `${LOCATE_ELEMENT}(${JSON.stringify({ ...target, focus: options.focus === true })})`,
      returnByValue: true,
    })
    if (exceptionDetails) {
      throw previewError(PreviewErrorNames.NoElement, `${describe(target)}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`)
    }
    const box = result.value as Box | null
    if (!box) throw previewError(PreviewErrorNames.NoElement, `no visible element matches ${describe(target)}`)
    return box
  }

  /** The page's next load event, bounded by LOAD_TIMEOUT_MS. */
  private nextLoad(): { promise: Promise<void>; cancel(): void } {
    let cancel = (): void => {}
    const promise = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        off()
        reject(previewError(PreviewErrorNames.NotRunning, `the page did not finish loading within ${LOAD_TIMEOUT_MS / 1000} s`))
      }, LOAD_TIMEOUT_MS)
      const off = this.client.Page.loadEventFired(() => {
        clearTimeout(timer)
        off()
        resolve()
      })
      cancel = () => {
        clearTimeout(timer)
        off()
      }
    })
    return { promise, cancel }
  }
}

/**
 * The favicon Chromium asks every page for on its own: a page without one would always show an
 * error it never caused (and the agent would chase it).
 */
function browserOwn(url: string): boolean {
  return URL.canParse(url) && new URL(url).pathname === '/favicon.ico'
}

function describe(target: ElementTarget): string {
  return 'selector' in target ? `selector ${JSON.stringify(target.selector)}` : `text ${JSON.stringify(target.text)}`
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    // Ended between the listing and the read.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH') return undefined
    throw error
  }
}
