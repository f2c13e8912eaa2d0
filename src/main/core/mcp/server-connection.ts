import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { pathToFileURL } from 'node:url'
import { auth } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  ListRootsRequestSchema,
  type Implementation,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { McpServerConfig } from '../config/schema'
import { type RawToolResult, toToolResult } from './content'
import { describeError, isAuthError, isConnectionClosed, isRemoteConnectionLost } from './errors'
import { stdioLaunch } from './launch'
import type { StdioLaunch } from './stdio-transport'
import type { CommandSandbox } from '../sandbox/sandbox'
import { LoopbackRedirect } from './oauth-loopback'
import { McpOAuthProvider } from './oauth-provider'
import { type Closable, connectRemote } from './remote-connect'
import type { LoginShellPath } from './shell-path'
import { StdioProcessTransport } from './stdio-transport'
import { detached } from '../util/detached'
import type { McpServerSource, McpServerState, McpServerStatus, McpToolResult, McpTransportKind, SecretStore } from './types'

type Env = Readonly<Record<string, string | undefined>>

/** What every server connection of a project shares. */
export interface ConnectionDeps {
  projectRoot: string
  env: Env
  loginPath(): Promise<LoginShellPath>
  defaultTimeoutMs: number
  restartDelaysMs: readonly number[]
  stableAfterMs: number
  callTimeoutMs: number
  killGraceMs: number
  clientInfo: Implementation
  secrets?: SecretStore
  openUrl?: (url: URL) => void | Promise<void>
  /** The OS sandbox for servers configured with `"sandbox": true`. */
  sandbox?: () => CommandSandbox
  onStatus(status: McpServerStatus): void
  onToolsChanged(): void
  onWarning(message: string): void
}

/** `initial`: project open; `manual`: the user's restart/enable; `auto`: after a crash. */
type StartMode = 'initial' | 'manual' | 'auto'

/** After the first stdout line that is not JSON-RPC, how long a handshake may still take. */
const GARBLED_GRACE_MS = 3_000

interface StateUpdate {
  state: McpServerState
  error?: string
  needsAuth?: boolean
}

/**
 * One MCP server of a project: its connection attempts (each bounded by a timeout),
 * health state, crash detection with a bounded number of automatic restarts, and the
 * calls made through it. Every attempt has a generation number; callbacks from an
 * older attempt (a late close, a late handshake) find a newer number and do nothing.
 */
export class McpServerConnection {
  private state: McpServerState
  private error: string | undefined
  private needsAuth = false
  private kind: McpTransportKind | undefined
  private tools: Tool[] = []
  private serverInfo: Implementation | undefined
  private restarts = 0
  private restartTimer: NodeJS.Timeout | undefined
  private stableTimer: NodeJS.Timeout | undefined
  private generation = 0
  private client: Client | undefined
  /** The latest stdio transport, kept after it ends so its exit code and stderr explain failures. */
  private stdio: StdioProcessTransport | undefined
  private closables: Closable[] = []
  /** The current attempt's client closed after its handshake but before the attempt finished. */
  private closedEarly = false
  /** Clients whose handshake completed: only their closing is a crash (a failed handshake rejects on its own). */
  private readonly handshaken = new WeakSet<Client>()
  private lastTransportError: Error | undefined
  private current: Promise<void> = Promise.resolve()
  private disposed = false
  /** Set while a start attempt runs: stdout garbage shortens its wait. */
  private onGarbledOutput: (() => void) | undefined
  /** Aborted by dispose: ends a sign-in that is waiting for the browser. */
  private readonly lifetime = new AbortController()

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    readonly source: McpServerSource,
    private readonly deps: ConnectionDeps,
    enabled: boolean,
  ) {
    this.state = enabled ? 'starting' : 'disabled'
  }

  get isConnected(): boolean {
    return this.state === 'connected' && this.client !== undefined
  }

  get isDisabled(): boolean {
    return this.state === 'disabled'
  }

  status(): McpServerStatus {
    const running = this.stdio?.pid !== undefined && this.stdio.exit === undefined && this.state !== 'disabled'
    const stderr = this.stdio?.stderr.get()
    return {
      name: this.name,
      type: this.config.type,
      source: this.source,
      state: this.state,
      ...(this.error !== undefined ? { error: this.error } : {}),
      ...(this.needsAuth ? { needsAuth: true } : {}),
      ...(this.state === 'connected' && this.kind ? { transport: this.kind } : {}),
      ...(running ? { pid: this.stdio?.pid } : {}),
      toolCount: this.state === 'connected' ? this.tools.length : 0,
      restarts: this.restarts,
      restartPending: this.restartTimer !== undefined,
      ...(this.serverInfo ? { serverInfo: { name: this.serverInfo.name, version: this.serverInfo.version } } : {}),
      ...(stderr && stderr.length > 0 ? { stderr } : {}),
    }
  }

  /** The tools while connected (none otherwise: a failed server degrades only its own tools). */
  toolList(): readonly Tool[] {
    return this.state === 'connected' ? this.tools : []
  }

  /** Resolves when the current start attempt has settled (connected or failed). */
  settled(): Promise<void> {
    return this.current
  }

  start(mode: StartMode): Promise<void> {
    const attempt = this.run(mode).catch((error: unknown) => {
      // A bug in this class, not in the server; still a visible state rather than a hang.
      this.set({ state: 'failed', error: `internal error while starting: ${describeError(error)}` })
    })
    this.current = attempt
    return attempt
  }

  async disable(): Promise<void> {
    this.generation += 1
    this.clearTimers()
    this.report(await this.teardown())
    this.set({ state: 'disabled' })
    this.deps.onToolsChanged()
  }

  async callTool(tool: string, args: unknown, signal?: AbortSignal): Promise<McpToolResult> {
    const client = this.client
    if (!this.isConnected || !client) return { output: this.unavailable(), isError: true }
    const generation = this.generation
    try {
      const result = await client.callTool({ name: tool, arguments: toArguments(args) }, undefined, {
        signal,
        timeout: this.deps.callTimeoutMs,
        resetTimeoutOnProgress: true,
      })
      return toToolResult(result as RawToolResult)
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error
      const current = generation === this.generation
      const closed = isConnectionClosed(error) && current
      const reason = closed ? (this.exitSummary() ?? 'the connection to the server closed') : describeError(error)
      if (current && this.state === 'connected' && this.config.type === 'remote' && isRemoteConnectionLost(error)) {
        this.background('crash handling', this.onCrash(generation, `the connection to the server was lost: ${reason}`))
      }
      return { output: `MCP server "${this.name}" could not run ${tool}: ${reason}`, isError: true }
    }
  }

  /** The connected client, for resources and prompts; a readable error otherwise. */
  requireClient(): Client {
    if (!this.isConnected || !this.client) throw new Error(this.unavailable())
    return this.client
  }

  hasCapability(capability: 'resources' | 'prompts' | 'tools'): boolean {
    return this.isConnected && this.client?.getServerCapabilities()?.[capability] !== undefined
  }

  /**
   * Interactive OAuth sign-in (authorization code + PKCE through a loopback redirect):
   * opens the browser through `openUrl`, waits for the redirect, stores the tokens, then
   * reconnects. Tokens that are still valid (or refreshable) need no browser.
   */
  async authenticate(options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<void> {
    const config = this.config
    if (config.type !== 'remote') throw new Error(`MCP server "${this.name}" runs locally; only remote servers sign in`)
    const secrets = this.deps.secrets
    if (!secrets) throw new Error('no secret store is available to keep the sign-in')
    let provider: McpOAuthProvider | undefined
    const loopback = await LoopbackRedirect.listen(await McpOAuthProvider.registeredRedirect(secrets, config.url), () => provider?.pendingState)
    const closables: Closable[] = []
    try {
      provider = await McpOAuthProvider.create({
        serverUrl: config.url,
        secrets,
        interactive: true,
        redirectUrl: loopback.url,
        openUrl: this.deps.openUrl,
        clientName: this.deps.clientInfo.name,
      })
      try {
        const { client } = await connectRemote({ config, createClient: () => this.createClient(-1), authProvider: provider, track: (t) => closables.push(t) })
        closables.push(client)
      } catch (error) {
        if (!isAuthError(error) || !provider.authorizationUrl) throw error
        const signal = options.signal ? AbortSignal.any([options.signal, this.lifetime.signal]) : this.lifetime.signal
        const code = await loopback.waitForCode(options.timeoutMs ?? 5 * 60_000, signal)
        await auth(provider, { serverUrl: config.url, authorizationCode: code })
      }
    } finally {
      const results = await Promise.allSettled([...closables.map((c) => c.close()), loopback.close()])
      this.report(results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : [])))
    }
    await this.start('manual')
  }

  async dispose(): Promise<void> {
    this.disposed = true
    this.lifetime.abort()
    this.generation += 1
    this.clearTimers()
    const errors = await this.teardown()
    if (errors.length > 0) throw new AggregateError(errors, `MCP server "${this.name}" did not close cleanly`)
  }

  private async run(mode: StartMode): Promise<void> {
    if (this.disposed) return
    this.clearTimers()
    if (mode !== 'auto') this.restarts = 0
    const generation = ++this.generation
    const hadTools = this.tools.length > 0 && this.state === 'connected'
    this.report(await this.teardown())
    if (generation !== this.generation) return
    this.tools = []
    this.closedEarly = false
    this.lastTransportError = undefined
    // The previous process's exit and stderr must not explain this attempt's failure.
    this.stdio = undefined
    this.set({ state: 'starting' })
    if (hadTools) this.deps.onToolsChanged()

    const timeoutMs = this.config.timeoutMs ?? this.deps.defaultTimeoutMs
    const timers: NodeJS.Timeout[] = []
    const gaveUp = new Promise<'timeout' | 'garbled'>((resolve) => {
      timers.push(setTimeout(() => resolve('timeout'), timeoutMs))
      // Servers that log a banner to stdout still answer right after it; one that
      // only writes garbage would otherwise hold the whole timeout.
      this.onGarbledOutput = () => {
        this.onGarbledOutput = undefined
        timers.push(setTimeout(() => resolve('garbled'), Math.min(GARBLED_GRACE_MS, timeoutMs)))
      }
    })
    const attempt = this.connect(generation)
    let outcome: 'connected' | 'timeout' | 'garbled'
    try {
      outcome = await Promise.race([attempt.then(() => 'connected' as const), gaveUp])
    } catch (error) {
      if (generation !== this.generation) return
      const reason = this.failureReason(error)
      this.report(await this.teardown())
      if (generation === this.generation) this.fail(reason, mode, isAuthError(error))
      return
    } finally {
      for (const timer of timers) clearTimeout(timer)
      this.onGarbledOutput = undefined
    }
    if (generation !== this.generation) return
    if (outcome !== 'connected') {
      // The attempt goes on until teardown closes its transport; its own error then is
      // only a consequence of that (the race above already observes it), and the
      // timeout (or the garbage) is the reason reported.
      const reason = this.withDiagnostics(
        outcome === 'timeout'
          ? `did not answer the MCP handshake within ${formatSeconds(timeoutMs)}`
          : 'no MCP handshake: the server writes output that is not MCP JSON-RPC',
      )
      this.report(await this.teardown())
      if (generation === this.generation) this.fail(reason, mode, false)
      return
    }
    if (this.closedEarly) {
      this.background('crash handling', this.onCrash(generation))
      return
    }
    this.set({ state: 'connected' })
    this.stableTimer = setTimeout(() => {
      // Up long enough: a later crash is a new problem and gets the full restart budget.
      this.stableTimer = undefined
      this.restarts = 0
      this.emit()
    }, this.deps.stableAfterMs)
    this.stableTimer.unref()
    this.deps.onToolsChanged()
  }

  /** The launch wrapped by the OS sandbox; fails (the server does not start) when the sandbox cannot run. */
  private async sandboxed(launch: StdioLaunch): Promise<{ launch: StdioLaunch; release(transport: StdioProcessTransport): Closable }> {
    if (!this.deps.sandbox) throw new Error('this server asks for the sandbox ("sandbox": true), which is not available here')
    const wrapped = await this.deps.sandbox().wrap([launch.command, ...launch.args], { cwd: launch.cwd, env: launch.env })
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries(wrapped.env)) if (value !== undefined) env[key] = value
    return {
      launch: { ...launch, command: wrapped.command, args: wrapped.args, env, stdio: wrapped.stdio, started: wrapped.started },
      // Once the server has stopped: protected paths it created are moved out of the project, and said so.
      release: (transport) => ({
        close: async () => {
          try {
            await transport.close()
            for (const note of await wrapped.settle()) this.deps.onWarning(`MCP server "${this.name}": ${note}`)
          } finally {
            await wrapped.dispose()
          }
        },
      }),
    }
  }

  private async connect(generation: number): Promise<void> {
    let client: Client
    if (this.config.type === 'local') {
      const loginPath = await this.deps.loginPath()
      if (generation !== this.generation) throw new Error('superseded')
      let launch = stdioLaunch(this.config, { projectRoot: this.deps.projectRoot, env: this.deps.env, path: loginPath.path })
      await assertDirectory(launch.cwd)
      if (generation !== this.generation) throw new Error('superseded')
      const sandboxed = this.config.sandbox ? await this.sandboxed(launch) : undefined
      if (sandboxed) launch = sandboxed.launch
      const transport = new StdioProcessTransport({ ...launch, killGraceMs: this.deps.killGraceMs })
      transport.oninvalid = () => {
        if (generation === this.generation && this.state === 'starting') this.onGarbledOutput?.()
      }
      this.stdio = transport
      this.closables.push(sandboxed ? sandboxed.release(transport) : transport)
      client = this.createClient(generation)
      this.client = client
      await client.connect(transport)
      this.handshaken.add(client)
      this.kind = 'stdio'
    } else {
      const authProvider = await this.remoteAuthProvider()
      const connected = await connectRemote({
        config: this.config,
        createClient: () => this.createClient(generation),
        authProvider,
        track: (transport) => {
          if (generation === this.generation) this.closables.push(transport)
          else transport.close().catch((error: unknown) => this.report([error]))
        },
      })
      client = connected.client
      this.handshaken.add(client)
      if (generation !== this.generation) {
        await client.close()
        throw new Error('superseded')
      }
      this.client = client
      this.kind = connected.kind
    }
    const tools = await listAllTools(client)
    if (generation !== this.generation) throw new Error('superseded')
    this.tools = tools
    this.serverInfo = client.getServerVersion()
  }

  private createClient(generation: number): Client {
    const client = new Client(this.deps.clientInfo, { capabilities: { roots: { listChanged: false } } })
    const root = this.deps.projectRoot
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(root).href, name: basename(root) }] }))
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.refreshTools(generation, client))
    client.onclose = () => this.onClosed(generation, client)
    client.onerror = (error) => {
      if (generation === this.generation) this.lastTransportError = error
    }
    return client
  }

  private async remoteAuthProvider(): Promise<McpOAuthProvider | undefined> {
    if (this.config.type !== 'remote' || !this.deps.secrets) return undefined
    // A configured Authorization header is the server's credential; OAuth would fight it.
    if (Object.keys(this.config.headers ?? {}).some((key) => key.toLowerCase() === 'authorization')) return undefined
    return McpOAuthProvider.create({ serverUrl: this.config.url, secrets: this.deps.secrets, interactive: false, clientName: this.deps.clientInfo.name })
  }

  private onClosed(generation: number, client: Client): void {
    if (generation !== this.generation || !this.handshaken.has(client)) return
    if (this.state === 'connected') this.background('crash handling', this.onCrash(generation))
    else if (this.state === 'starting') this.closedEarly = true
  }

  /** The connection ended while in use: failed with the reason, then restarted while the budget lasts. */
  /** Work started from a callback or timer: its failure reaches the project's warnings, not the process. */
  private background(what: string, task: Promise<unknown>): void {
    detached(`mcp ${this.name}: ${what}`, task, (error) => this.deps.onWarning(`MCP server "${this.name}": ${what} failed: ${describeError(error)}`))
  }

  private async onCrash(generation: number, why?: string): Promise<void> {
    const reason = why ?? this.exitSummary() ?? this.withDiagnostics('the connection to the server closed')
    if (this.stableTimer) clearTimeout(this.stableTimer)
    this.stableTimer = undefined
    this.tools = []
    this.set({ state: 'failed', error: reason })
    this.deps.onToolsChanged()
    // Ends what the server left behind (its process group) and releases the client.
    this.report(await this.teardown())
    if (generation === this.generation) this.scheduleRestart(reason)
  }

  private fail(reason: string, mode: StartMode, needsAuth: boolean): void {
    if (mode === 'auto' && !needsAuth) {
      this.scheduleRestart(reason)
      return
    }
    this.set({ state: 'failed', error: needsAuth ? `sign-in required (OAuth): ${reason}` : reason, needsAuth })
  }

  private scheduleRestart(reason: string): void {
    if (this.disposed) return
    const delay = this.deps.restartDelaysMs[this.restarts]
    if (delay === undefined) {
      const given = this.restarts === 0 ? 'automatic restarts are off' : `gave up after ${this.restarts} automatic restart${this.restarts === 1 ? '' : 's'}`
      this.set({ state: 'failed', error: `${reason}\n(${given}; restart the server to try again)` })
      return
    }
    this.restarts += 1
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined
      this.background('automatic restart', this.start('auto'))
    }, delay)
    this.restartTimer.unref()
    this.set({ state: 'failed', error: reason })
  }

  private async refreshTools(generation: number, client: Client): Promise<void> {
    if (generation !== this.generation || this.state !== 'connected') return
    let tools: Tool[]
    try {
      tools = await listAllTools(client)
    } catch (error) {
      if (generation === this.generation && this.state === 'connected') {
        this.deps.onWarning(`MCP server "${this.name}": could not refresh its tools after a change: ${describeError(error)}`)
      }
      return
    }
    if (generation !== this.generation || this.state !== 'connected') return
    this.tools = tools
    this.emit()
    this.deps.onToolsChanged()
  }

  /** Closes the client and every transport of the current attempt; returns what failed. */
  private async teardown(): Promise<unknown[]> {
    const client = this.client
    const closables = this.closables.splice(0)
    this.client = undefined
    this.kind = undefined
    const errors: unknown[] = []
    if (client) await client.close().catch((error: unknown) => errors.push(error))
    const results = await Promise.allSettled(closables.map((closable) => closable.close()))
    for (const result of results) if (result.status === 'rejected') errors.push(result.reason)
    return errors
  }

  private report(errors: unknown[]): void {
    for (const error of errors) this.deps.onWarning(`MCP server "${this.name}": ${describeError(error)}`)
  }

  private clearTimers(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer)
    if (this.stableTimer) clearTimeout(this.stableTimer)
    this.restartTimer = undefined
    this.stableTimer = undefined
  }

  private set(update: StateUpdate): void {
    this.state = update.state
    this.error = update.error
    this.needsAuth = update.needsAuth ?? false
    this.emit()
  }

  private emit(): void {
    if (!this.disposed) this.deps.onStatus(this.status())
  }

  private unavailable(): string {
    const why = this.error ? `: ${this.error.split('\n')[0]}` : ''
    return `MCP server "${this.name}" is ${this.state}${why}; its tools cannot run now`
  }

  /** Why an attempt failed, preferring what the process told us over the SDK's symptom. */
  private failureReason(error: unknown): string {
    const stdio = this.stdio
    if (this.config.type === 'local' && stdio?.spawnError) return spawnFailure(stdio.spawnError, stdio, this.config)
    if (this.config.type === 'local' && stdio?.exit) return this.exitSummary() ?? describeError(error)
    const message = isConnectionClosed(error) && this.lastTransportError ? describeError(this.lastTransportError) : describeError(error)
    return this.withDiagnostics(message)
  }

  /** "exited with code 3" plus what it printed, when the process has ended. */
  private exitSummary(): string | undefined {
    const exit = this.stdio?.exit
    if (!exit) return undefined
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`
    return this.withDiagnostics(`the server process ${how}`)
  }

  private withDiagnostics(summary: string): string {
    const lines = [summary]
    const invalid = this.stdio?.invalidOutput[0]
    if (invalid !== undefined) lines.push(`it wrote output that is not MCP JSON-RPC to stdout: ${JSON.stringify(invalid)}`)
    const tail = this.stdio?.stderr.summary(10)
    if (tail) lines.push(`stderr (last lines):\n${tail}`)
    return lines.join('\n')
  }
}

async function listAllTools(client: Client): Promise<Tool[]> {
  if (!client.getServerCapabilities()?.tools) return []
  const tools: Tool[] = []
  let cursor: string | undefined
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined)
    tools.push(...page.tools)
    cursor = page.nextCursor
  } while (cursor)
  return tools
}

async function assertDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`the working directory ${dir} ${error.code === 'ENOENT' ? 'does not exist' : `cannot be used (${error.code})`}`)
  })
  if (!info.isDirectory()) throw new Error(`the working directory ${dir} is not a folder`)
}

function spawnFailure(error: NodeJS.ErrnoException, stdio: StdioProcessTransport, config: McpServerConfig): string {
  const command = config.type === 'local' ? (typeof config.command === 'string' ? config.command : config.command[0]) : ''
  if (error.code === 'ENOENT') return `command "${command}" was not found (is it installed and on the PATH of your login shell?)`
  if (error.code === 'EACCES') return `command "${command}" cannot be run: permission denied`
  return `command "${command}" could not start: ${error.message}${stdio.stderr.summary() ? `\n${stdio.stderr.summary()}` : ''}`
}

function toArguments(args: unknown): Record<string, unknown> {
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {}
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
}
