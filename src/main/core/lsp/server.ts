import { readFileSync, statSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { LspDiagnostic, LspServerStatus } from '@shared/ipc/lsp'
import { Emitter, type Subscription, type Listener } from '../util/emitter'
import { log } from '../util/log'
import { languageIdOf } from './catalog'
import type { LanguageServerClient } from './client'
import { toLspDiagnostic } from './format'
import type { ServerSource } from './locate'
import type { ServerLaunch } from './process'
import type { EffectiveServer } from './specs'

export type ResolvedLaunch =
  | {
      launch: ServerLaunch
      source: ServerSource
      initializationOptions?: Record<string, unknown>
      /** Overrides the spec's `reopenToRecheck` for this executable (another server of the same language). */
      reopenToRecheck?: boolean
    }
  | { missing: string; install?: { packages: string[]; declined: boolean } }

export interface ServerHandleDeps {
  rootPath: string
  resolve(): Promise<ResolvedLaunch>
  onStatus(status: LspServerStatus): void
  onDiagnostics(uri: string, diagnostics: LspDiagnostic[]): void
  /** Delays of the automatic restarts after a crash (default 250 ms, 1 s, 3 s). */
  restartDelaysMs?: readonly number[]
  /** A server up this long earns a fresh restart budget (default 60 s). */
  stableAfterMs?: number
}

/** Files a server keeps open at once; the oldest is closed past this. */
const MAX_OPEN_DOCUMENTS = 200
/** Problems kept per file: enough for any screen, bounded for a server gone wild. */
const MAX_DIAGNOSTICS_PER_FILE = 500
/** Text files larger than this are not sent to a server. */
const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024

interface OpenDocument {
  path: string
  mtimeMs: number
  size: number
}

/**
 * One language server of a project, through its whole life: started on first
 * use, restarted a bounded number of times after a crash (re-opening the files
 * it had open), then degraded with the reason. Keeps the last diagnostics per
 * file and a count of reports, so callers can wait for the report that follows
 * their change.
 */
export class ServerHandle {
  private client: LanguageServerClient | undefined
  private starting: Promise<LanguageServerClient | undefined> | undefined
  private state: LspServerStatus['state'] = 'idle'
  private reason: string | undefined
  private source: ServerSource | undefined
  /** Whether the running executable needs a close and re-open to report on a changed file again. */
  private reopenToRecheck = false
  private install: LspServerStatus['install']
  private restarts = 0
  private recentCrashes = 0
  private startedAt = 0
  private disposed = false
  private restartTimer: NodeJS.Timeout | undefined
  private readonly documents = new Map<string, OpenDocument>()
  readonly diagnostics = new Map<string, LspDiagnostic[]>()
  private readonly reports = new Map<string, number>()
  private readonly reported = new Emitter<string>('lsp reports')
  private readonly answered = new Emitter<void>('lsp answers')
  /** URIs closed only to be re-opened: the empty report their close causes is not news. */
  private readonly reopening = new Set<string>()
  private readonly opening = new Map<string, Promise<string | undefined>>()

  constructor(
    readonly server: EffectiveServer,
    private readonly deps: ServerHandleDeps,
  ) {}

  get id(): string {
    return this.server.spec.id
  }

  get isStarting(): boolean {
    return this.state === 'starting' || this.state === 'restarting' || this.state === 'installing'
  }

  get isReady(): boolean {
    return this.state === 'ready'
  }

  /** Running and past its first report: it has loaded the project, so a check of one change is quick. */
  get isWarm(): boolean {
    return this.state === 'ready' && this.reports.size > 0
  }

  status(): LspServerStatus {
    return {
      id: this.id,
      name: this.server.spec.name,
      state: this.state,
      extensions: this.server.spec.extensions,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.client?.pid !== undefined && this.state === 'ready' ? { pid: this.client.pid } : {}),
      restarts: this.restarts,
      ...(this.source ? { source: this.source } : {}),
      openFiles: this.documents.size,
      ...(this.install ? { install: this.install } : {}),
    }
  }

  private setState(state: LspServerStatus['state'], reason?: string): void {
    this.state = state
    this.reason = reason
    this.deps.onStatus(this.status())
  }

  /** Marks the server as being installed (the installer runs elsewhere). */
  markInstalling(): void {
    this.install = undefined
    this.setState('installing')
  }

  /** Starts the server unless it runs, is starting or gave up; resolves with the client once ready. */
  ensure(): Promise<LanguageServerClient | undefined> {
    if (this.disposed) return Promise.resolve(undefined)
    if (this.client && this.state === 'ready') return Promise.resolve(this.client)
    if (this.starting) return this.starting
    if (this.state === 'degraded' || this.state === 'restarting') return Promise.resolve(undefined)
    this.starting = this.start(false).finally(() => {
      this.starting = undefined
    })
    return this.starting
  }

  private async start(restart: boolean): Promise<LanguageServerClient | undefined> {
    this.install = undefined
    this.setState(restart ? 'restarting' : 'starting')
    let resolved: ResolvedLaunch
    try {
      resolved = await this.deps.resolve()
    } catch (error) {
      this.setState('degraded', `it could not be found: ${error instanceof Error ? error.message : String(error)}`)
      return undefined
    }
    if (this.disposed) return undefined
    if ('missing' in resolved) {
      this.install = resolved.install
      this.setState('missing', resolved.missing)
      return undefined
    }
    this.source = resolved.source
    this.reopenToRecheck = resolved.reopenToRecheck ?? this.server.spec.reopenToRecheck === true
    // A crash during the handshake goes the same way as a later one: restarts, then degraded.
    let crashed = false
    // The protocol library is loaded with the first server, not at start (most runs never start one).
    const { LanguageServerClient } = await import('./client')
    if (this.disposed) return undefined
    const client = new LanguageServerClient({
      launch: resolved.launch,
      rootPath: this.deps.rootPath,
      initializationOptions: resolved.initializationOptions,
      settings: this.server.spec.settings,
      // Hints ("unused", "could be simplified") are editor styling, not problems to fix.
      onDiagnostics: (uri, diagnostics) =>
        this.onReport(uri, diagnostics.map(toLspDiagnostic).filter((d) => d.severity !== 'hint').slice(0, MAX_DIAGNOSTICS_PER_FILE)),
      onAnswered: () => this.answered.emit(),
      onExit: (reason) => {
        crashed = true
        this.onCrash(client, reason)
      },
    })
    this.client = client
    try {
      await client.start()
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const stderr = client.stderr.summary(5)
      await client.stop()
      if (crashed) return undefined
      if (this.client === client) this.client = undefined
      if (!this.disposed) this.setState('degraded', `it could not be started: ${message}${stderr ? `: ${stderr}` : ''}`)
      return undefined
    }
    if (this.disposed || this.client !== client) {
      await client.stop()
      return undefined
    }
    this.startedAt = Date.now()
    this.setState('ready')
    // After a restart the server knows nothing: give it back the files it had.
    const reopen = [...this.documents.values()].map((doc) => doc.path)
    this.documents.clear()
    for (const path of reopen) await this.syncFile(path)
    return client
  }

  private onCrash(client: LanguageServerClient, reason: string): void {
    if (this.disposed || this.client !== client) return
    this.client = undefined
    // Only a server that was up (ready) for a while earns a fresh budget; one that dies while starting does not.
    if (this.startedAt > 0 && Date.now() - this.startedAt >= (this.deps.stableAfterMs ?? 60_000)) this.recentCrashes = 0
    this.startedAt = 0
    const delays = this.deps.restartDelaysMs ?? [250, 1_000, 3_000]
    const delay = delays[this.recentCrashes]
    log.warn(`[lsp] ${this.id} stopped: ${reason}`)
    if (delay === undefined) {
      this.setState('degraded', `it stopped ${this.recentCrashes + 1} times; the last time ${reason}`)
      return
    }
    this.recentCrashes += 1
    this.restarts += 1
    this.setState('restarting', reason)
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined
      this.starting = this.start(true).finally(() => {
        this.starting = undefined
      })
    }, delay)
  }

  /** Waits for a restart that is under way (or a first start), up to `deadline`. */
  async whenSettled(deadline: number): Promise<LanguageServerClient | undefined> {
    while (!this.disposed && (this.state === 'restarting' || this.state === 'starting') && Date.now() < deadline) {
      if (this.starting) {
        const started = this.starting
        const result = await Promise.race([started, sleep(Math.max(0, deadline - Date.now())).then(() => undefined)])
        if (result) return result
        continue
      }
      await sleep(Math.min(50, Math.max(0, deadline - Date.now())))
    }
    return this.state === 'ready' ? this.client : undefined
  }

  /** A user asked to try again: the restart budget starts over. */
  async restart(): Promise<void> {
    clearTimeout(this.restartTimer)
    const old = this.client
    this.client = undefined
    await old?.stop()
    this.recentCrashes = 0
    this.state = 'idle'
    await this.ensure()
  }

  /** Whether the server has answered every diagnostics request (a pull server); false for one that publishes. */
  diagnosticsComplete(): boolean {
    return this.client?.diagnosticsComplete() === true
  }

  /** How many reports the server has sent for `uri` (to wait for the next one). */
  reportCount(uri: string): number {
    return this.reports.get(uri) ?? 0
  }

  /** Called with the URI of every report the server sends (after `diagnostics` is updated). */
  onReportFor(listener: Listener<string>): Subscription {
    return this.reported.on(listener)
  }

  /** Called whenever a pull server has no diagnostics request outstanding any more (see `diagnosticsComplete`). */
  onAnswered(listener: Listener<void>): Subscription {
    return this.answered.on(listener)
  }

  private onReport(uri: string, diagnostics: LspDiagnostic[]): void {
    if (this.reopening.delete(uri) && diagnostics.length === 0) return
    if (diagnostics.length === 0) this.diagnostics.delete(uri)
    else this.diagnostics.set(uri, diagnostics)
    this.reports.set(uri, this.reportCount(uri) + 1)
    this.deps.onDiagnostics(uri, diagnostics)
    this.reported.emit(uri)
  }

  hasOpen(path: string): boolean {
    return this.documents.has(pathToFileURL(path).href)
  }

  /** Paths of the open files whose content on disk changed since they were sent. */
  staleDocuments(): string[] {
    const stale: string[] = []
    for (const doc of this.documents.values()) {
      const stat = statSync(doc.path, { throwIfNoEntry: false })
      if (!stat || stat.mtimeMs !== doc.mtimeMs || stat.size !== doc.size) stale.push(doc.path)
    }
    return stale
  }

  /**
   * Sends the file's current text (opening it first when needed). A deleted file
   * is closed and its problems cleared. Returns the URI, or undefined when the
   * server is not running or the file is too large to send.
   */
  async syncFile(path: string): Promise<string | undefined> {
    const client = this.client
    if (!client || this.state !== 'ready') return undefined
    const uri = pathToFileURL(path).href
    const stat = statSync(path, { throwIfNoEntry: false })
    if (!stat?.isFile()) {
      this.documents.delete(uri)
      await client.close(uri)
      this.onReport(uri, [])
      return undefined
    }
    if (stat.size > MAX_DOCUMENT_BYTES) return undefined
    const text = readFileSync(path, 'utf8')
    if (this.reopenToRecheck && client.isOpen(uri)) {
      this.reopening.add(uri)
      await client.close(uri)
    }
    this.documents.delete(uri)
    this.documents.set(uri, { path, mtimeMs: stat.mtimeMs, size: stat.size })
    await client.sync(uri, languageIdOf(path), text)
    if (this.documents.size > MAX_OPEN_DOCUMENTS) {
      const [oldest] = this.documents.keys()
      if (oldest !== undefined) {
        this.documents.delete(oldest)
        await client.close(oldest)
      }
    }
    return uri
  }

  /**
   * Makes sure the server has the file's current text without re-sending an unchanged
   * file: a re-open cancels the server's pending requests on it, so parallel questions
   * about one file share a single open.
   */
  ensureOpen(path: string): Promise<string | undefined> {
    const uri = pathToFileURL(path).href
    const doc = this.documents.get(uri)
    const stat = statSync(path, { throwIfNoEntry: false })
    if (doc && stat && stat.mtimeMs === doc.mtimeMs && stat.size === doc.size) return Promise.resolve(uri)
    const pending = this.opening.get(uri)
    if (pending) return pending
    const opened = this.syncFile(path).finally(() => this.opening.delete(uri))
    this.opening.set(uri, opened)
    return opened
  }

  /** The running client, for `lsp` tool requests. */
  running(): LanguageServerClient | undefined {
    return this.state === 'ready' ? this.client : undefined
  }

  async dispose(): Promise<void> {
    this.disposed = true
    clearTimeout(this.restartTimer)
    const client = this.client
    this.client = undefined
    // Stopped first: a server stuck in its handshake must not hold up closing the project.
    await client?.stop()
    await this.starting
    this.state = 'stopped'
  }
}

export function uriToPath(uri: string): string | undefined {
  return uri.startsWith('file:') ? fileURLToPath(uri) : undefined
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
