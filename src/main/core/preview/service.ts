import { relative } from 'node:path'
import type { PreviewConsoleEntry, PreviewStatus } from '@shared/schema/preview'
import type { ProjectInstance } from '../project/instance'
import type { TerminalHost } from '../pty/terminal-host'
import type { ShellSpec } from '../pty/shell'
import { killTree, treeTag, TREE_VARIABLE, describeLeft } from '../process/tree'
import { log } from '../util/log'
import { canListen, findFreePort, MAIN_PORT_RANGE } from '../worktree/ports'
import { resolveLaunch, type ResolvedLaunch } from './detect'
import type { BrowserDriver, DriverFactory } from './driver'
import { PreviewErrorNames, previewError } from './errors'
import { answers, waitForUrl } from './ready'
import { startStaticServer, type StaticServer } from './static-server'
import { launchUrl, UrlPolicy } from './urls'

/** Console entries kept per preview (the oldest go first). */
const CONSOLE_LIMIT = 500

export interface PreviewServiceDeps {
  project: ProjectInstance
  /** Whether the folder is trusted now (a restricted folder's launch file and scripts run nothing). */
  trusted(): boolean
  /** The project's terminals: the dev server's output is a tab there. */
  terminals(): TerminalHost
  /** The shell that runs a launch command (`-c`). */
  shell(): string
  /**
   * Wraps the command in the OS sandbox when it is on (loopback ports stay reachable); returns the
   * command to run instead, and a cleanup for when it ended.
   */
  confine?(command: ShellSpec, cwd: string, env: Record<string, string>): Promise<Confined | undefined>
  /** Opens the browser the agent tools drive (headless Chromium over CDP, or the desktop pane). */
  driver?: DriverFactory
  onStatus?(status: PreviewStatus): void
  onConsole?(entry: PreviewConsoleEntry): void
}

/** A launch command wrapped in the OS sandbox: run `command` with exactly `env`; `dispose` once it ended. */
export interface Confined {
  command: ShellSpec
  env: Record<string, string>
  dispose(): Promise<void>
}

interface Running {
  launch: ResolvedLaunch
  port: number
  url: string
  tag: string
  terminalId?: string
  pid?: number
  server?: StaticServer
  confined?: { dispose(): Promise<void> }
  stop: AbortController
  ended: Promise<string>
  attached?: boolean
}

/**
 * The preview of one project or worktree: starts its dev server (a launch configuration or a
 * detected one) on the project's port, reports when its URL answers, keeps the page's console, and
 * stops the server (its whole process tree) on `stop` and when the project closes.
 */
export class PreviewService {
  readonly urls: UrlPolicy
  private current: PreviewStatus
  private running: Running | undefined
  private starting: Promise<PreviewStatus> | undefined
  private readonly entries: PreviewConsoleEntry[] = []
  private browser: Promise<BrowserDriver> | undefined
  private mainPort: number | undefined
  private disposed = false

  constructor(private readonly deps: PreviewServiceDeps) {
    this.current = { projectId: deps.project.id, state: 'stopped' }
    this.urls = new UrlPolicy(() => ({ ...(this.running ? { preview: this.running.port } : {}), block: deps.project.ports }))
  }

  status(): PreviewStatus {
    return { ...this.current }
  }

  /**
   * Starts the preview (configuration `name`, else the first or detected one) and resolves once its
   * URL answers. While one is starting, its start is awaited; a ready one of the same name is kept.
   */
  async start(options: { name?: string } = {}): Promise<PreviewStatus> {
    if (this.disposed) throw previewError(PreviewErrorNames.NotRunning, 'the project was closed')
    if (this.starting) return this.starting
    if (this.current.state === 'ready' && (options.name === undefined || options.name === this.current.name)) return this.status()
    this.starting = this.launch(options.name).finally(() => {
      this.starting = undefined
    })
    return this.starting
  }

  async stop(): Promise<PreviewStatus> {
    const running = this.running
    if (!running) return this.status()
    await this.end(running)
    this.update({ projectId: this.deps.project.id, state: 'stopped', ...this.describe(running) })
    return this.status()
  }

  /** Console entries (newest last), optionally only those after `since` (ms since the epoch). */
  console(options: { since?: number; limit?: number } = {}): PreviewConsoleEntry[] {
    const since = options.since
    const matching = since === undefined ? this.entries : this.entries.filter((entry) => entry.at > since)
    return matching.slice(-(options.limit ?? CONSOLE_LIMIT))
  }

  /** A console message, exception or failed request of the page (from a driver or the pane). */
  record(entry: PreviewConsoleEntry): void {
    this.entries.push(entry)
    if (this.entries.length > CONSOLE_LIMIT) this.entries.splice(0, this.entries.length - CONSOLE_LIMIT)
    this.deps.onConsole?.(entry)
  }

  /** Forgets the console (the agent checks whether an error is gone after a fix). */
  clearConsole(): void {
    this.entries.length = 0
  }

  /**
   * The browser the agent tools drive, opened on first use; it shows the preview's URL. Fails when
   * no preview is ready.
   */
  async driver(): Promise<BrowserDriver> {
    const url = this.current.state === 'ready' ? this.current.url : undefined
    if (!url) throw previewError(PreviewErrorNames.NotRunning, 'no preview is running: start it first (preview_start)')
    if (!this.deps.driver) throw previewError(PreviewErrorNames.NoBrowser, 'no browser is available to drive the preview here')
    if (!this.browser) {
      const factory = this.deps.driver
      this.browser = factory({ projectId: this.deps.project.id, onConsole: (entry) => this.record(entry), allows: (candidate) => this.urls.allows(candidate) }).then(async (driver) => {
        await driver.navigate(url)
        return driver
      })
      // A browser that failed to open is opened afresh on the next call.
      this.browser.catch(() => {
        this.browser = undefined
      })
    }
    return this.browser
  }

  async dispose(): Promise<void> {
    this.disposed = true
    const browser = this.browser
    this.browser = undefined
    const closing = browser ? browser.then((driver) => driver.close(), (error: unknown) => log.warn(`[preview] browser had not opened: ${(error as Error).message}`)) : Promise.resolve()
    await Promise.all([closing, this.running ? this.end(this.running) : Promise.resolve()])
  }

  private async launch(name: string | undefined): Promise<PreviewStatus> {
    const project = this.deps.project
    const launch = resolveLaunch(project.root, name)
    if (launch.runsFolderCode && !this.deps.trusted()) {
      throw previewError(
        PreviewErrorNames.Restricted,
        `the folder is restricted: its ${launch.source === 'launch.json' ? '.hotaru/launch.json' : 'package.json scripts'} run nothing until you trust it`,
      )
    }
    if (this.running) await this.end(this.running)
    const port = launch.port ?? project.ports?.first ?? (await this.freePort())
    const url = launchUrl(launch.url, port)
    const stop = new AbortController()
    const running: Running = { launch, port, url, tag: treeTag(), stop, ended: Promise.resolve('') }
    this.running = running
    const startedAt = Date.now()
    // The user's own dev server on the worktree's port (a terminal, another hotaru preview start) is used as it is.
    if ((launch.port !== undefined || project.ports !== null) && (await answers(url))) {
      running.attached = true
      this.update({ projectId: project.id, state: 'ready', ...this.describe(running), startedAt, readyAt: Date.now() })
      return this.status()
    }
    this.update({ projectId: project.id, state: 'starting', ...this.describe(running), startedAt })
    try {
      await this.spawn(running)
    } catch (error) {
      await this.end(running)
      const message = (error as Error).message
      this.update({ projectId: project.id, state: 'failed', ...this.describe(running), startedAt, error: message })
      throw previewError(PreviewErrorNames.StartFailed, `the preview "${launch.name}" did not start: ${message}`)
    }
    const outcome = await waitForUrl(url, { timeoutMs: launch.readyTimeoutMs, ended: running.ended, signal: stop.signal })
    if (this.running !== running) throw previewError(PreviewErrorNames.StartFailed, 'the preview was stopped while it started')
    if (!outcome.ready) {
      await this.end(running)
      this.update({ projectId: project.id, state: 'failed', ...this.describe(running), startedAt, error: outcome.reason })
      throw previewError(PreviewErrorNames.StartFailed, `the preview "${launch.name}" did not start: ${outcome.reason}`, { terminalId: running.terminalId })
    }
    this.update({ projectId: project.id, state: 'ready', ...this.describe(running), startedAt, readyAt: Date.now() })
    // A later exit is reported: the pane shows it and the agent's next tool call says so.
    running.ended
      .then((reason) => {
        if (this.running === running && reason) this.update({ ...this.current, state: 'exited', error: reason })
      })
      .catch((error: unknown) => log.warn(`[preview] exit of ${launch.name} not observed: ${(error as Error).message}`))
    return this.status()
  }

  private async spawn(running: Running): Promise<void> {
    const { launch, port } = running
    if (launch.staticRoot !== undefined) {
      running.server = await startStaticServer(launch.staticRoot, port)
      return
    }
    const env: Record<string, string> = { HOTARU_PORT: String(port), PORT: String(port), [TREE_VARIABLE]: running.tag, ...launch.env }
    let command: ShellSpec = { file: this.deps.shell(), args: ['-c', launch.command ?? ''] }
    const confined = await this.deps.confine?.(command, launch.cwd, env)
    if (confined) {
      command = confined.command
      running.confined = confined
    }
    const terminals = this.deps.terminals()
    // The previous run's tab (kept so its output could be read) makes way for this one.
    const previous = this.current.terminalId
    if (previous) await terminals.kill(previous)
    let resolveEnded: (reason: string) => void = () => {}
    running.ended = new Promise<string>((resolve) => {
      resolveEnded = resolve
    })
    const info = terminals.create({
      cols: 120,
      rows: 30,
      cwd: relative(this.deps.project.root, launch.cwd),
      command,
      ...(confined ? { baseEnv: confined.env } : {}),
      env,
      onExit: ({ exitCode, signal }) => resolveEnded(signal ? `the server was ended by signal ${signal}` : `the server exited with code ${exitCode}`),
    })
    running.terminalId = info.id
    running.pid = info.pid
  }

  /** Ends the server: its whole process tree (the group and everything carrying its tag), or the static server. */
  private async end(running: Running): Promise<void> {
    running.stop.abort()
    if (this.running === running) this.running = undefined
    const browser = this.browser
    this.browser = undefined
    if (browser) await browser.then((driver) => driver.close(), () => undefined)
    if (running.server) await running.server.close()
    if (running.pid !== undefined) {
      const left = describeLeft(await killTree(running.pid, { tag: running.tag }))
      if (left) log.warn(`[preview] ${running.launch.name}: ${left}`)
    }
    await running.confined?.dispose()
  }

  private describe(running: Running): Omit<PreviewStatus, 'projectId' | 'state'> {
    return {
      name: running.launch.name,
      source: running.launch.source,
      ...(running.launch.command !== undefined ? { command: running.launch.command } : {}),
      url: running.url,
      port: running.port,
      ...(running.attached ? { attached: true } : {}),
      ...(running.terminalId !== undefined ? { terminalId: running.terminalId } : {}),
      ...(running.pid !== undefined ? { pid: running.pid } : {}),
    }
  }

  private update(status: PreviewStatus): void {
    this.current = status
    this.deps.onStatus?.(this.status())
  }

  /** A main tree has no port block: it gets a free port, kept while it stays free. */
  private async freePort(): Promise<number> {
    if (this.mainPort !== undefined && (await canListen(this.mainPort))) return this.mainPort
    const port = await findFreePort()
    if (port === undefined) throw previewError(PreviewErrorNames.StartFailed, `no free loopback port between ${MAIN_PORT_RANGE.from} and ${MAIN_PORT_RANGE.to}`)
    this.mainPort = port
    return this.mainPort
  }
}

