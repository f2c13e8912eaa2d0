import type { Implementation, Prompt, Resource, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { CommandSandbox } from '../sandbox/sandbox'
import { APP_VERSION } from '../app/meta'
import type { McpServerConfig } from '../config/schema'
import type { Disposable } from '../util/disposable'
import { toContentParts } from './content'
import { describeError } from './errors'
import { readProjectMcpJson } from './project-mcp-json'
import { type ConnectionDeps, McpServerConnection } from './server-connection'
import { type LoginShellPath, loginShellPathOnce } from './shell-path'
import { assignToolNames, qualifiedToolName } from './tool-names'
import type {
  McpListing,
  McpPrompt,
  McpPromptResult,
  McpResource,
  McpResourceContents,
  McpServerSource,
  McpServerStatus,
  McpTool,
  McpToolResult,
  SecretStore,
} from './types'

export interface McpManagerOptions {
  /** The merged config's `mcp` section. */
  servers: Record<string, McpServerConfig> | undefined
  projectRoot: string
  /** The environment servers inherit; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>
  /** Every health change of every server (starting, connected, failed, disabled…). */
  onStatus?: (status: McpServerStatus) => void
  /** The set of MCP tools may have changed (a server connected or failed, or sent list_changed). */
  onToolsChanged?: () => void
  /** Problems that are not one server's state: an invalid `.mcp.json`, a PATH fallback. */
  onWarning?: (message: string) => void
  /** Read `<project>/.mcp.json` too (default true). */
  projectMcpJson?: boolean
  /** Servers the user switched off for this project (kept by the caller). */
  disabled?: readonly string[]
  /** Where OAuth sign-ins of remote servers are kept; without it, servers that need OAuth fail. */
  secrets?: SecretStore
  /** Opens the browser for an OAuth sign-in. */
  openUrl?: (url: URL) => void | Promise<void>
  /** Handshake timeout for servers without their own `timeoutMs` (default 30 s). */
  timeoutMs?: number
  /** Delays of the automatic restarts after a crash (default 1 s, 2 s, 4 s: three attempts). */
  restartDelaysMs?: readonly number[]
  /** A connection up this long earns a fresh restart budget (default 60 s). */
  stableAfterMs?: number
  /** Longest a tool call may go without progress (default 10 min). */
  callTimeoutMs?: number
  /** How long a server may take to exit after SIGTERM before SIGKILL (default 1.5 s). */
  killGraceMs?: number
  /** PATH for stdio servers; defaults to the login shell's, resolved once per process. */
  loginShellPath?: () => Promise<LoginShellPath>
  clientInfo?: Implementation
  /** The OS sandbox for stdio servers that opt in with `"sandbox": true`. */
  sandbox?: () => CommandSandbox
}

/**
 * The MCP servers of one project. `start()` connects every enabled server in
 * parallel, each under its own timeout; a server that fails only loses its own tools.
 * Owned by the project's DisposableStore: `dispose()` closes every client and ends
 * every server process tree.
 */
export class McpManager implements Disposable {
  private readonly connections = new Map<string, McpServerConnection>()
  private readonly toolIndex = new Map<string, { connection: McpServerConnection; tool: string }>()
  private readonly collectedWarnings: string[] = []
  private readonly deps: ConnectionDeps
  private starting: Promise<void> | undefined
  private disposed = false

  constructor(private readonly options: McpManagerOptions) {
    const env = options.env ?? process.env
    let loginPath: Promise<LoginShellPath> | undefined
    this.deps = {
      projectRoot: options.projectRoot,
      env,
      loginPath: () => {
        loginPath ??= (options.loginShellPath ?? (() => loginShellPathOnce(env)))().then((resolved) => {
          if (resolved.warning) this.warn(resolved.warning)
          return resolved
        })
        return loginPath
      },
      defaultTimeoutMs: options.timeoutMs ?? 30_000,
      restartDelaysMs: options.restartDelaysMs ?? [1_000, 2_000, 4_000],
      stableAfterMs: options.stableAfterMs ?? 60_000,
      callTimeoutMs: options.callTimeoutMs ?? 10 * 60_000,
      killGraceMs: options.killGraceMs ?? 1_500,
      clientInfo: options.clientInfo ?? { name: 'hotaru', version: APP_VERSION },
      secrets: options.secrets,
      openUrl: options.openUrl,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      onStatus: (status) => this.notify(() => options.onStatus?.(status)),
      onToolsChanged: () => this.notify(() => options.onToolsChanged?.()),
      onWarning: (message) => this.warn(message),
    }
  }

  /** Starts every enabled server; resolves when each has connected or failed. Safe to call again. */
  start(): Promise<void> {
    this.starting ??= this.startAll()
    return this.starting
  }

  statuses(): McpServerStatus[] {
    return this.sorted().map((connection) => connection.status())
  }

  status(name: string): McpServerStatus {
    return this.connection(name).status()
  }

  /** What went wrong outside any one server, in order (also sent to `onWarning`). */
  warnings(): string[] {
    return [...this.collectedWarnings]
  }

  /** Tools of the connected servers, named `server__tool` (sanitized, unique). */
  listTools(): McpTool[] {
    const entries: Array<{ connection: McpServerConnection; tool: Tool }> = []
    for (const connection of this.sorted()) for (const tool of connection.toolList()) entries.push({ connection, tool })
    const names = assignToolNames(entries.map(({ connection, tool }) => ({ server: connection.name, tool: tool.name })))
    this.toolIndex.clear()
    return entries.map(({ connection, tool }, i) => {
      const name = names[i] as string
      this.toolIndex.set(name, { connection, tool: tool.name })
      return {
        name,
        description: tool.description ?? tool.title ?? `${tool.name} (from the MCP server ${connection.name})`,
        inputSchema: tool.inputSchema as Record<string, unknown>,
        server: connection.name,
        tool: tool.name,
        ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
      }
    })
  }

  /**
   * Runs a tool by its `server__tool` name. Failures of the server or the tool come
   * back as an error result written for the model; only an abort (through `signal`)
   * throws, with the signal's reason.
   */
  async callTool(name: string, args: unknown, signal?: AbortSignal): Promise<McpToolResult> {
    if (!this.toolIndex.has(name)) this.listTools()
    const entry = this.toolIndex.get(name)
    if (!entry) {
      // A tool of a server that is down now: say why, so the model (and the user) knows it may come back.
      const owner = this.sorted().find((connection) => !connection.isConnected && name.startsWith(qualifiedToolName(connection.name, '')))
      if (owner) return owner.callTool(name, args, signal)
      return { output: `there is no MCP tool named "${name}" (its server may have stopped or changed its tools)`, isError: true }
    }
    return entry.connection.callTool(entry.tool, args, signal)
  }

  async listResources(): Promise<McpListing<McpResource>> {
    return this.collect('resources', async (connection) => {
      const resources = await paginate((cursor) => connection.requireClient().listResources(cursor ? { cursor } : undefined), (page) => page.resources)
      return resources.map((resource: Resource) => ({
        server: connection.name,
        uri: resource.uri,
        name: resource.name,
        ...(resource.description ? { description: resource.description } : {}),
        ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
      }))
    })
  }

  async readResource(server: string, uri: string): Promise<McpResourceContents[]> {
    const client = this.connection(server).requireClient()
    const result = await client.readResource({ uri }).catch((error: unknown) => {
      throw new Error(`MCP server "${server}" could not read ${uri}: ${describeError(error)}`, { cause: error })
    })
    return result.contents.map((item) => ({
      uri: item.uri,
      ...(item.mimeType ? { mimeType: item.mimeType } : {}),
      ...('text' in item ? { text: item.text } : { blob: item.blob }),
    }))
  }

  async listPrompts(): Promise<McpListing<McpPrompt>> {
    return this.collect('prompts', async (connection) => {
      const prompts = await paginate((cursor) => connection.requireClient().listPrompts(cursor ? { cursor } : undefined), (page) => page.prompts)
      return prompts.map((prompt: Prompt) => ({
        server: connection.name,
        name: prompt.name,
        ...(prompt.description ? { description: prompt.description } : {}),
        arguments: (prompt.arguments ?? []).map((arg) => ({
          name: arg.name,
          ...(arg.description ? { description: arg.description } : {}),
          ...(arg.required !== undefined ? { required: arg.required } : {}),
        })),
      }))
    })
  }

  async getPrompt(server: string, name: string, args: Record<string, string> = {}): Promise<McpPromptResult> {
    const client = this.connection(server).requireClient()
    const result = await client.getPrompt({ name, arguments: args }).catch((error: unknown) => {
      throw new Error(`MCP server "${server}" could not give the prompt "${name}": ${describeError(error)}`, { cause: error })
    })
    return {
      ...(result.description ? { description: result.description } : {}),
      messages: result.messages.map((message) => ({ role: message.role, content: toContentParts([message.content]) })),
    }
  }

  /** Stops and starts a server again (also a disabled or given-up one), with a fresh restart budget. */
  async restart(name: string): Promise<McpServerStatus> {
    const connection = this.connection(name)
    await connection.start('manual')
    return connection.status()
  }

  async enable(name: string): Promise<McpServerStatus> {
    const connection = this.connection(name)
    if (connection.isDisabled) await connection.start('manual')
    return connection.status()
  }

  async disable(name: string): Promise<McpServerStatus> {
    const connection = this.connection(name)
    await connection.disable()
    return connection.status()
  }

  /**
   * Signs in to a remote server (OAuth authorization code + PKCE through a loopback
   * redirect, the browser opened by `openUrl`), then reconnects it.
   */
  async authenticate(name: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<McpServerStatus> {
    const connection = this.connection(name)
    await connection.authenticate(options)
    return connection.status()
  }

  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    const results = await Promise.allSettled([...this.connections.values()].map((connection) => connection.dispose()))
    this.toolIndex.clear()
    const errors = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} MCP server(s) did not close cleanly`)
  }

  private async startAll(): Promise<void> {
    const entries = new Map<string, { config: McpServerConfig; source: McpServerSource }>()
    if (this.options.projectMcpJson !== false) {
      const fromFile = await readProjectMcpJson(this.options.projectRoot, this.deps.env)
      for (const warning of fromFile.warnings) this.warn(warning)
      for (const [name, config] of Object.entries(fromFile.servers)) entries.set(name, { config, source: 'mcp.json' })
    }
    for (const [name, config] of Object.entries(this.options.servers ?? {})) {
      if (entries.has(name)) this.warn(`MCP server "${name}" is defined in hotaru config and in .mcp.json; the hotaru config is used`)
      entries.set(name, { config, source: 'config' })
    }
    if (this.disposed) return
    const disabled = new Set(this.options.disabled ?? [])
    const starts: Promise<void>[] = []
    for (const [name, { config, source }] of entries) {
      const enabled = config.enabled !== false && !disabled.has(name)
      const connection = new McpServerConnection(name, config, source, this.deps, enabled)
      this.connections.set(name, connection)
      if (enabled) starts.push(connection.start('initial'))
      else this.deps.onStatus(connection.status())
    }
    await Promise.all(starts)
  }

  private async collect<T>(capability: 'resources' | 'prompts', list: (connection: McpServerConnection) => Promise<T[]>): Promise<McpListing<T>> {
    const listing: McpListing<T> = { items: [], errors: [] }
    const connected = this.sorted().filter((connection) => connection.hasCapability(capability))
    const results = await Promise.allSettled(connected.map(list))
    results.forEach((result, i) => {
      const server = (connected[i] as McpServerConnection).name
      if (result.status === 'fulfilled') listing.items.push(...result.value)
      else listing.errors.push({ server, message: describeError(result.reason) })
    })
    return listing
  }

  private connection(name: string): McpServerConnection {
    const connection = this.connections.get(name)
    if (!connection) throw new Error(`no MCP server named "${name}" in this project`)
    return connection
  }

  private sorted(): McpServerConnection[] {
    return [...this.connections.values()].sort((a, b) => a.name.localeCompare(b.name))
  }

  private warn(message: string): void {
    this.collectedWarnings.push(message)
    this.options.onWarning?.(message)
  }

  /** A listener's exception is the caller's bug; it must not derail a server's state machine. */
  private notify(call: () => void): void {
    try {
      call()
    } catch (error) {
      this.warn(`an MCP status listener failed: ${describeError(error)}`)
    }
  }
}

async function paginate<P extends { nextCursor?: string }, T>(fetchPage: (cursor: string | undefined) => Promise<P>, items: (page: P) => T[]): Promise<T[]> {
  const all: T[] = []
  let cursor: string | undefined
  do {
    const page = await fetchPage(cursor)
    all.push(...items(page))
    cursor = page.nextCursor
  } while (cursor)
  return all
}
