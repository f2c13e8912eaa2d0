import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { LspDiagnostic, LspFileDiagnostics, LspServerStatus } from '@shared/ipc/lsp'
import type { Config } from '../config'
import type { Disposable } from '../util/disposable'
import { log } from '../util/log'
import { errorKey, errorsOf } from './format'
import { locateServer, locateTypescript, nativeTypescriptBinary, projectTypescriptLib } from './locate'
import { ServerHandle, uriToPath, type ResolvedLaunch } from './server'
import { languagesInUse } from './seed'
import { SessionDiagnostics } from './session-diagnostics'
import { effectiveServers, installPolicy, serverForFile, type EffectiveServer, type InstallPolicy } from './specs'

export interface ProjectLspDeps {
  root: string
  /** `<dataDir>/lsp`: servers installed on demand live here. */
  installDir: string
  env: Readonly<Record<string, string | undefined>>
  /** PATH for servers (the login shell's). */
  loginPath(): Promise<string>
  /** Installs npm packages into `installDir`. */
  install(packages: string[]): Promise<void>
  /** The remembered answer to "install <package>?". */
  installDecision(pkg: string): 'yes' | 'no' | undefined
  /** The CLI's `--install-lsp`: install without asking. */
  installAllowed(): boolean
  onStatus(status: LspServerStatus): void
  onDiagnostics(file: LspFileDiagnostics): void
  /** Use the app's own copies of servers (default true). */
  bundled?: boolean
  /**
   * Whether the project's own `node_modules` may provide a server and its `typescript`, asked at
   * each start: not in a restricted folder, whose code runs nothing until the user trusts it.
   */
  projectCode(): boolean
  restartDelaysMs?: readonly number[]
  /** Scheduling niceness of the servers (see `ServerLaunch.niceness`). */
  niceness?: number
}

/** What a wait for diagnostics found, for the tool result and the tool card. */
export interface DiagnosticsReport {
  /** Errors of each touched file that a server covers (all of them: callers cut). */
  files: Array<{ path: string; server: string; errors: LspDiagnostic[] }>
  /** Errors that appeared in other files during the wait. */
  others: Array<{ path: string; errors: LspDiagnostic[] }>
  /** Servers that were not ready in time, or are degraded or missing, with a sentence each. */
  notes: string[]
}

export interface TouchOptions {
  /** Wait for the servers' reports at most this long (0: send the files, do not wait). */
  waitMs: number
  /** The report is complete once no further report came for this long. */
  quietMs?: number
  /**
   * Wait only for servers that are warm (running and past their first report): a server that is starting
   * or loading the project gets the files and is not waited for. Those files, and any a warm server did not
   * report on within the wait, go to `onPending`; no note about them is written into the report.
   */
  warmOnly?: boolean
  onPending?(file: PendingFile): void
}

/** A touched file whose report comes later: its server, and the report count it had when the change was sent. */
export interface PendingFile {
  abs: string
  path: string
  handle: ServerHandle
  sentAt: number
}

/**
 * The language servers of one project: one per language, started on the first
 * file of that language, ended with the project. Servers come from the catalog
 * and the project's `lsp` config; missing npm servers are installed on demand
 * when the user (or the config, or the CLI flag) allowed it.
 */
export class ProjectLsp implements Disposable {
  private servers: EffectiveServer[] = []
  private policy: InstallPolicy = 'ask'
  private configKey = ''
  private readonly handles = new Map<string, ServerHandle>()
  /** What each session's model was told about its edits, and what it is still owed. */
  private readonly sessions = new Map<string, SessionDiagnostics>()
  private disposed = false
  configErrors: string[] = []

  constructor(private readonly deps: ProjectLspDeps) {
    this.configure(undefined)
  }

  /** Applies the project's current config; servers whose settings changed are stopped and start again on next use. */
  configure(config: Config | undefined): void {
    const key = JSON.stringify(config?.lsp ?? null)
    if (key === this.configKey && this.servers.length + this.configErrors.length > 0) return
    this.configKey = key
    const { servers, errors } = effectiveServers(config?.lsp)
    this.configErrors = errors
    for (const error of errors) log.warn(`[lsp] ${error}`)
    this.policy = installPolicy(config?.lsp)
    const previous = new Map(this.servers.map((s) => [s.spec.id, JSON.stringify(s)]))
    this.servers = servers
    for (const [id, handle] of [...this.handles]) {
      const next = servers.find((s) => s.spec.id === id)
      if (next && previous.get(id) === JSON.stringify(next)) continue
      this.handles.delete(id)
      void handle.dispose().catch((error: unknown) => log.warn(`[lsp] stopping ${id} failed: ${String(error)}`))
    }
  }

  /** Project-relative, `/`-separated (absolute for files outside the project). */
  relPath(abs: string): string {
    const rel = relative(this.deps.root, abs)
    if (rel.startsWith('..') || isAbsolute(rel)) return abs
    return rel.split(sep).join('/')
  }

  absPath(path: string): string {
    return isAbsolute(path) ? path : resolve(this.deps.root, path)
  }

  /** The handle of the server for a file, created (not started) on first use; undefined when no server covers it. */
  handleFor(abs: string): ServerHandle | undefined {
    if (this.disposed) return undefined
    const server = serverForFile(this.servers, abs)
    if (!server) return undefined
    return this.handle(server)
  }

  private handle(server: EffectiveServer): ServerHandle {
    const existing = this.handles.get(server.spec.id)
    if (existing) return existing
    const handle: ServerHandle = new ServerHandle(server, {
      rootPath: this.deps.root,
      resolve: () => this.resolveLaunch(server, handle),
      onStatus: (status) => this.deps.onStatus(status),
      onDiagnostics: (uri, diagnostics) => {
        const path = uriToPath(uri)
        if (path) this.deps.onDiagnostics({ path: this.relPath(path), server: server.spec.id, diagnostics })
      },
      restartDelaysMs: this.deps.restartDelaysMs,
    })
    this.handles.set(server.spec.id, handle)
    return handle
  }

  handleById(id: string): ServerHandle | undefined {
    const server = this.servers.find((s) => s.spec.id === id)
    return server ? this.handle(server) : undefined
  }

  /**
   * Where each server would come from, without starting or installing anything
   * (`hotaru lsp status`): its state when it runs in this process, its command when found,
   * the reason when it is missing.
   */
  async availability(): Promise<Array<LspServerStatus & { command?: string }>> {
    const out: Array<LspServerStatus & { command?: string }> = []
    for (const status of this.statuses()) {
      const server = this.servers.find((s) => s.spec.id === status.id)
      if (!server) continue
      const resolved = await this.resolveLaunch(server, undefined)
      if ('missing' in resolved) out.push({ ...status, state: status.state === 'idle' ? 'missing' : status.state, reason: status.reason ?? resolved.missing, ...(resolved.install ? { install: resolved.install } : {}) })
      else out.push({ ...status, source: resolved.source, command: [resolved.launch.command, ...resolved.launch.args].join(' ') })
    }
    return out
  }

  /** How to start a server; with no handle, nothing is installed (only looked up). */
  private async resolveLaunch(server: EffectiveServer, handle: ServerHandle | undefined): Promise<ResolvedLaunch> {
    const path = await this.deps.loginPath()
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries(this.deps.env)) if (value !== undefined) env[key] = value
    env.PATH = path
    Object.assign(env, server.env)
    const spec = server.spec
    if (server.command) {
      // Trust hook point: a `command` from the project's own config runs a program of the project's choosing.
      const [command = '', ...args] = server.command
      return { launch: { command, args, cwd: this.deps.root, env, niceness: this.deps.niceness }, source: 'config', initializationOptions: spec.initializationOptions }
    }
    const projectCode = this.deps.projectCode()
    if (spec.id === 'typescript') {
      const native = this.nativeTypescript(projectCode, env)
      if (native) return native
    }
    const locate = () => locateServer(spec, { projectRoot: this.deps.root, installDir: this.deps.installDir, path, bundled: this.deps.bundled, projectCode })
    let located = locate()
    if (!located && spec.npm) {
      const packages = [spec.npm.package, ...(spec.npm.with ?? [])].map((p, i) => (i === 0 && server.version ? `${p}@${server.version}` : p))
      const decision = this.deps.installDecision(spec.npm.package)
      const allowed = this.policy === 'auto' || (this.policy !== 'never' && (decision === 'yes' || this.deps.installAllowed()))
      if (!allowed || !handle) {
        // The folder's own copy exists but is its code: it runs once the folder is trusted.
        const ownWaits = !projectCode && locateServer(spec, { projectRoot: this.deps.root, installDir: this.deps.installDir, path, bundled: false })?.source === 'project'
        const why = ownWaits
          ? `the folder's own ${spec.bin} starts once the folder is trusted${this.policy === 'never' ? '' : `; another can be installed into the app's data folder`}`
          : this.policy === 'never'
            ? `${spec.bin} is not installed (lsp.install is "never")`
            : `${spec.bin} is not installed in the project; it can be installed into the app's data folder`
        const canInstall = this.policy !== 'never' ? { install: { packages, declined: decision === 'no' } } : {}
        return { missing: allowed ? `${spec.bin} is not installed yet; it is installed on first use` : why, ...canInstall }
      }
      handle.markInstalling()
      await this.deps.install(packages)
      located = locate()
    }
    if (!located) return { missing: spec.npm ? `${spec.bin} could not be found after installing it` : `${spec.bin} is not on PATH` }
    let initializationOptions = spec.initializationOptions
    if (spec.id === 'typescript') {
      const lib = locateTypescript(this.deps.root, this.deps.installDir, projectCode)
      if (lib) initializationOptions = { ...initializationOptions, tsserver: { path: join(lib, 'tsserver.js') } }
    }
    return { launch: { command: located.command, args: located.args, cwd: this.deps.root, env, niceness: this.deps.niceness }, source: located.source, initializationOptions }
  }

  /**
   * TypeScript and JavaScript are checked by the native TypeScript compiler the app ships (`tsgo --lsp`, many
   * times faster to its first report than tsserver) unless the project has a TypeScript of its own: then its
   * errors must match the project's `tsc`, and typescript-language-server runs that version.
   */
  private nativeTypescript(projectCode: boolean, env: Record<string, string>): ResolvedLaunch | undefined {
    if (this.deps.bundled === false || (projectCode && projectTypescriptLib(this.deps.root) !== undefined)) return undefined
    const tsgo = nativeTypescriptBinary()
    if (!tsgo) return undefined
    // It answers diagnostics on request after every change (LSP pull), so no re-open is needed.
    return { launch: { command: tsgo, args: ['--lsp', '--stdio'], cwd: this.deps.root, env, niceness: this.deps.niceness }, source: 'bundled', reopenToRecheck: false }
  }

  statuses(): LspServerStatus[] {
    return this.servers.map((server) => {
      const handle = this.handles.get(server.spec.id)
      if (handle) return handle.status()
      return { id: server.spec.id, name: server.spec.name, state: 'idle', extensions: server.spec.extensions, restarts: 0, openFiles: 0 }
    })
  }

  /** Every file's current problems, across servers. */
  allDiagnostics(): LspFileDiagnostics[] {
    const out: LspFileDiagnostics[] = []
    for (const handle of this.handles.values()) {
      for (const [uri, diagnostics] of handle.diagnostics) {
        const path = uriToPath(uri)
        if (path) out.push({ path: this.relPath(path), server: handle.id, diagnostics })
      }
    }
    return out.sort((a, b) => a.path.localeCompare(b.path))
  }

  /**
   * Makes sure the files are open on their servers as they are on disk now (starting the servers when
   * needed) without waiting for anything. A file the server already has unchanged is not sent again: a
   * re-sent file is checked again, and a change makes a pull server check every other open file too.
   */
  async open(paths: string[]): Promise<void> {
    for (const path of paths) {
      const abs = this.absPath(path)
      const handle = this.handleFor(abs)
      if (!handle) continue
      const starting = handle.ensure()
      if (await raceNow(starting)) await handle.ensureOpen(abs)
      else openOnceUp(handle, starting, [abs])
    }
  }

  /**
   * Sends the files' current text to their servers (starting them when needed)
   * and waits, up to `waitMs`, for the reports that follow: each touched file's
   * first report, then until reports stop for `quietMs`. Never waits longer.
   */
  async touch(paths: string[], options: TouchOptions): Promise<DiagnosticsReport> {
    const deadline = Date.now() + options.waitMs
    const report: DiagnosticsReport = { files: [], others: [], notes: [] }
    const groups = new Map<ServerHandle, string[]>()
    for (const path of paths) {
      const abs = this.absPath(path)
      const handle = this.handleFor(abs)
      if (handle) groups.set(handle, [...(groups.get(handle) ?? []), abs])
    }
    await Promise.all([...groups].map(([handle, files]) => this.touchServer(handle, files, deadline, options, report)))
    return report
  }

  private async touchServer(handle: ServerHandle, files: string[], deadline: number, options: TouchOptions, report: DiagnosticsReport): Promise<void> {
    const name = handle.server.spec.name
    const starting = handle.ensure()
    // A file owed its report; `sentAt`: the report count before its change was sent (default: now, it is sent later).
    const pending = (file: string, sentAt = handle.reportCount(pathToFileURL(file).href)): void =>
      options.onPending?.({ abs: file, path: this.relPath(file), handle, sentAt })
    // A first start or a restart after a crash under way is waited for, up to the same deadline (unless only warm servers are).
    const waitForStart = options.waitMs > 0 && !options.warmOnly
    const client = waitForStart ? await handle.whenSettled(deadline) : await raceNow(starting)
    if (!client) {
      const status = handle.status()
      if (status.state === 'missing') report.notes.push(`The ${name} language server is not available: ${status.reason ?? 'not installed'}.`)
      else if (status.state === 'degraded') report.notes.push(`The ${name} language server is not working: ${status.reason ?? 'unknown reason'}.`)
      else if (options.warmOnly) for (const file of files) pending(file)
      else if (options.waitMs > 0) report.notes.push(`The ${name} language server is still starting; its diagnostics are not in this result.`)
      // Once it is up, it gets the files anyway (for the Problems panel and later edits).
      openOnceUp(handle, starting, files)
      return
    }
    const touched = new Set(files.map((f) => pathToFileURL(f).href))
    const before = new Set<string>()
    for (const [uri, diagnostics] of handle.diagnostics) {
      if (touched.has(uri)) continue
      const path = this.relPath(uriToPath(uri) ?? uri)
      for (const d of diagnostics) if (d.severity === 'error') before.add(errorKey(path, d))
    }
    // Files changed behind the server's back (by bash, the user) are sent first, so it checks the current tree.
    for (const stale of handle.staleDocuments()) if (!touched.has(pathToFileURL(stale).href)) await handle.syncFile(stale)
    const counts = new Map([...touched].map((uri) => [uri, handle.reportCount(uri)]))
    const wait = options.waitMs > 0 && (!options.warmOnly || handle.isWarm)
    const waiting = wait ? this.waitForReports(handle, counts, deadline, options.quietMs ?? 250) : Promise.resolve(true)
    for (const file of files) await handle.syncFile(file)
    const complete = await waiting
    if (!wait) {
      if (options.warmOnly) for (const file of files) pending(file, counts.get(pathToFileURL(file).href) ?? 0)
      return
    }
    if (!complete && !options.warmOnly) report.notes.push(`The ${name} language server did not finish checking within ${Math.round(options.waitMs / 100) / 10} s; diagnostics may be incomplete.`)
    for (const file of files) {
      const uri = pathToFileURL(file).href
      // A file the server has not reported on since the change is left out: "no errors" would be a guess.
      if (handle.reportCount(uri) <= (counts.get(uri) ?? 0)) {
        pending(file, counts.get(uri) ?? 0)
        continue
      }
      const diagnostics = handle.diagnostics.get(uri) ?? []
      report.files.push({ path: this.relPath(file), server: handle.id, errors: errorsOf({ path: '', server: handle.id, diagnostics }) })
    }
    for (const [uri, diagnostics] of handle.diagnostics) {
      if (touched.has(uri)) continue
      const path = this.relPath(uriToPath(uri) ?? uri)
      const fresh = diagnostics.filter((d) => d.severity === 'error' && !before.has(errorKey(path, d)))
      if (fresh.length > 0) report.others.push({ path, errors: fresh })
    }
  }

  /**
   * Starts, in the background, the servers whose languages the project's root says it uses (a `markers`
   * file, or a source file of the language in the root or `src/`), so they have loaded the project by the
   * time the agent edits; a server that is not installed is not installed by this (its status says so, as
   * on first use). Servers without markers (JSON, YAML, CSS…) serve files every project has and start on
   * first use.
   */
  prestart(): void {
    for (const server of this.servers) {
      const uses = languagesInUse(this.deps.root, server.spec)
      if (!uses) continue
      // One source file opened at once makes the server load the project now (tsserver loads it on the first open).
      const seed = uses.seed
      const handle = this.handle(server)
      handle
        .ensure()
        .then(async (client) => {
          if (client && seed && !handle.hasOpen(seed)) await handle.syncFile(seed)
        })
        .catch((error: unknown) => log.warn(`[lsp] ${server.spec.id} did not start: ${String(error)}`))
    }
  }

  /** The session's ledger of edits and of the errors its model heard about. */
  diagnosticsOf(sessionId: string): SessionDiagnostics {
    let ledger = this.sessions.get(sessionId)
    if (!ledger) {
      ledger = new SessionDiagnostics()
      this.sessions.set(sessionId, ledger)
    }
    return ledger
  }

  /**
   * Before a turn ends: waits, at most `maxMs` (less on Stop), for the reports the session's edits are still
   * owed, then returns what its model has not heard yet (see `SessionDiagnostics.take`).
   */
  async settle(sessionId: string, options: { maxMs: number; quietMs: number; signal: AbortSignal }): Promise<string[]> {
    const ledger = this.sessions.get(sessionId)
    if (!ledger) return []
    const deadline = Date.now() + options.maxMs
    const byHandle = new Map<ServerHandle, Map<string, number>>()
    for (const owed of ledger.owed()) byHandle.set(owed.handle, (byHandle.get(owed.handle) ?? new Map<string, number>()).set(owed.uri, owed.sentAt))
    if (byHandle.size > 0 && !options.signal.aborted) {
      const stopped = new Promise<void>((resolvePromise) => options.signal.addEventListener('abort', () => resolvePromise(), { once: true }))
      await Promise.race([Promise.all([...byHandle].map(([handle, counts]) => this.waitForReports(handle, counts, deadline, options.quietMs))), stopped])
    }
    return ledger.take()
  }

  /**
   * Resolves true once every touched URI got a new report and reports have been quiet for `quietMs` (a pull
   * server: once no diagnostics answer is outstanding); false at the deadline.
   */
  private waitForReports(handle: ServerHandle, counts: Map<string, number>, deadline: number, quietMs: number): Promise<boolean> {
    return new Promise((resolvePromise) => {
      let quietTimer: NodeJS.Timeout | undefined
      const finish = (complete: boolean): void => {
        clearTimeout(quietTimer)
        clearTimeout(deadlineTimer)
        reports.dispose()
        answers.dispose()
        resolvePromise(complete)
      }
      const allReported = (): boolean => [...counts].every(([uri, count]) => handle.reportCount(uri) > count)
      const reported = (): void => {
        if (!allReported()) return
        // A pull server's answers are whole reports: done once none is outstanding, with no quiet period to sit out.
        if (handle.diagnosticsComplete()) {
          finish(true)
          return
        }
        clearTimeout(quietTimer)
        quietTimer = setTimeout(() => finish(true), Math.min(quietMs, Math.max(0, deadline - Date.now())))
      }
      const reports = handle.onReportFor(reported)
      // The last answer may be one for an older version, dropped without a report: it still completes the set.
      const answers = handle.onAnswered(reported)
      const deadlineTimer = setTimeout(() => finish(allReported()), Math.max(0, deadline - Date.now()))
      // Reports that came before this wait began count: the quiet period starts now.
      reported()
    })
  }

  /**
   * The folder's trust changed: servers that came from its own `node_modules`, and those that were
   * missing, are looked up again (the folder's own copy starts once it is trusted, and stops when
   * that is taken back). Servers found elsewhere keep running.
   */
  async trustChanged(): Promise<void> {
    const stale = [...this.handles.values()].filter((handle) => {
      const { source, state } = handle.status()
      return source === 'project' || state === 'missing'
    })
    await Promise.all(stale.map((handle) => handle.restart()))
  }

  /** Ends every server (the project is closing). */
  async dispose(): Promise<void> {
    this.disposed = true
    this.sessions.clear()
    const handles = [...this.handles.values()]
    this.handles.clear()
    const results = await Promise.allSettled(handles.map((h) => h.dispose()))
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed.length > 0) throw new AggregateError(failed.map((f) => f.reason as unknown), 'some language servers did not stop')
  }
}

/**
 * Sends `files` to a server that is still starting once it is up. Several calls may have queued the same file
 * meanwhile: it is sent once, as it is then.
 */
function openOnceUp(handle: ServerHandle, starting: Promise<unknown>, files: string[]): void {
  void starting
    .then(async (late) => {
      if (late) for (const file of files) await handle.ensureOpen(file)
    })
    .catch((error: unknown) => log.warn(`[lsp] ${handle.id}: ${String(error)}`))
}

/** The value when already settled, else undefined (no waiting). */
async function raceNow<T>(promise: Promise<T>): Promise<T | undefined> {
  return Promise.race([promise, new Promise<undefined>((r) => setImmediate(() => r(undefined)))])
}
