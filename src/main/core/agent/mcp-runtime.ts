import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { EventBus } from '../bus/bus'
import type { Config } from '../config'
import type { ProjectConfigSnapshot } from '../config/project-config'
import type { McpManager, McpServerStatus } from '../mcp'
import type { SecretStore } from '../secrets/file-store'
import type { ProjectInstance } from '../project/instance'
import { ServiceKey } from '../project/service-key'
import type { CommandSandbox } from '../sandbox/sandbox'
import { defineTool, type Tool, type ToolAttachment } from '../tools'
import { owned, projectsUnder, type AttachContext } from '../attach'
import type { ProjectConfigs } from '../config/project-configs'
import { DisposableStore, type Disposable } from '../util/disposable'
import { detached } from '../util/detached'
import { log } from '../util/log'

const SERVICE_KEY = new ServiceKey<ProjectServers>('mcp')

/** Anything the server's own schema allows; the server validates its arguments. */
const passThrough = z.record(z.string(), z.unknown())

function hasServers(project: ProjectInstance, config: Config, trusted: boolean): boolean {
  return Object.keys(config.mcp ?? {}).length > 0 || (trusted && existsSync(join(project.root, '.mcp.json')))
}

/**
 * The project's MCP servers: started when the project opens (the MCP client code
 * is loaded only for projects that have servers), owned by the ProjectInstance so
 * closing the tab ends every server process, and exposed as tools.
 */
/** The MCP servers of one project and the tools they offer: a service of its ProjectInstance. */
interface ProjectServers {
  manager: McpManager
  tools: Tool[]
  dispose(): Promise<void>
}

export class McpRuntime {
  constructor(
    private readonly bus: EventBus,
    /** The open project of an id (the project owns its servers; nothing is kept here). */
    private readonly find: (projectId: string) => ProjectInstance | undefined,
    /** Where OAuth tokens of remote servers are kept (the app's secret store). */
    private readonly secrets?: SecretStore,
    /** Opens the sign-in page; without one the URL is shown to the user as a notice. */
    private readonly openUrl?: (url: URL) => void | Promise<void>,
    /** The OS sandbox for stdio servers that opt in (`"sandbox": true`), from the project's config. */
    private readonly sandboxFor?: (projectRoot: string, config: Config) => CommandSandbox,
  ) {}

  /**
   * Starts the project's servers (once); resolves when each is connected or failed.
   * `.mcp.json` is read only once the folder is trusted (the config's own servers of an
   * untrusted folder were already withheld by its ProjectConfig).
   */
  async ensure(project: ProjectInstance, snapshot: Pick<ProjectConfigSnapshot, 'config' | 'trust'>): Promise<McpManager | undefined> {
    const { config } = snapshot
    const trusted = snapshot.trust.trusted
    const existing = project.existing(SERVICE_KEY)
    if (existing) {
      await existing.manager.start()
      return existing.manager
    }
    if (!hasServers(project, config, trusted)) return undefined
    const { McpManager } = await import('../mcp')
    const sandboxFor = this.sandboxFor
    const entry = project.service(SERVICE_KEY, () => {
      const created: ProjectServers = {
        manager: new McpManager({
        servers: config.mcp,
        projectRoot: project.root,
        // Servers started for a worktree get its ports like its other commands.
        env: { ...process.env, ...project.commandEnv },
        projectMcpJson: trusted,
        onStatus: (status) => this.bus.publish('mcp:status', status, project.id),
        onToolsChanged: () => this.refresh(project.id, created),
        onWarning: (message) => this.bus.publish('mcp:warning', { message }, project.id),
        secrets: this.secrets,
        openUrl:
          this.openUrl ??
          ((url) => {
            this.bus.publish('project:notice', { projectId: project.id, level: 'info', message: `Sign in to the MCP server: ${url.href}` }, project.id)
          }),
        ...(sandboxFor ? { sandbox: once(() => sandboxFor(project.root, config)) } : {}),
        }),
        tools: [],
        dispose: () => created.manager.dispose(),
      }
      return created
    })
    await entry.manager.start()
    this.refresh(project.id, entry)
    return entry.manager
  }

  /**
   * Servers start when a project opens, in the background (a turn waits for them to settle); a trust decision
   * restarts those of the projects below the folder (started now, or stopped when trust is taken back).
   */
  attach({ projects, trust, configs }: AttachContext): Disposable {
    const store = new DisposableStore()
    store.add(owned(projects.onOpened((project) => detached('mcp start', this.startOf(project, configs)))))
    store.add(
      owned(
        trust.onChange((change) => {
          for (const project of projectsUnder(projects, change.path)) {
            this.stop(project)
              .then(() => this.startOf(project, configs))
              .catch((error: unknown) => log.warn(`[mcp] servers of project ${project.id} did not stop: ${(error as Error).message}`))
          }
        }),
      ),
    )
    return store
  }

  /** Starts the project's servers from its config; an invalid config leaves them off (a turn reports it). */
  private async startOf(project: ProjectInstance, configs: ProjectConfigs): Promise<void> {
    try {
      if (!project.isOpen) return
      // A worktree's sessions get the servers only where the main project asks for that (`worktree.mcp`).
      if (project.worktreeOf && (await configs.of(project.worktreeOf).load()).config.worktree?.mcp !== true) return
      await this.ensure(project, await configs.of(project).load())
    } catch (error) {
      log.warn(`[mcp] servers of project ${project.id} not started: ${(error as Error).message}`)
    }
  }

  /** Ends the project's servers so that the next `ensure` starts them from the current config (after a trust change). */
  async stop(project: ProjectInstance): Promise<void> {
    if (!project.existing(SERVICE_KEY)) return
    await project.releaseService(SERVICE_KEY)
    this.bus.publish('mcp:tools', { tools: [] }, project.id)
  }

  /** Stops the project's servers and starts them again from its config and `.mcp.json` as they are now. */
  async reload(project: ProjectInstance, snapshot: ProjectConfigSnapshot): Promise<McpServerStatus[]> {
    await this.stop(project)
    await this.ensure(project, snapshot)
    this.bus.publish('mcp:tools', { tools: this.toolsOf(project.id).map((t) => t.id) }, project.id)
    return this.statuses(project.id)
  }

  private servers(projectId: string): ProjectServers | undefined {
    return this.find(projectId)?.existing(SERVICE_KEY)
  }

  manager(projectId: string): McpManager | undefined {
    return this.servers(projectId)?.manager
  }

  statuses(projectId: string): McpServerStatus[] {
    return this.servers(projectId)?.manager.statuses() ?? []
  }

  /** The connected servers' tools, as the tool host offers them. */
  toolsOf(projectId: string): Tool[] {
    return this.servers(projectId)?.tools ?? []
  }

  private refresh(projectId: string, entry: ProjectServers): void {
    const manager = entry.manager
    entry.tools = manager.listTools().map((tool) =>
        defineTool({
          id: tool.name,
          description: `${tool.description}\n(MCP tool "${tool.tool}" of server "${tool.server}")`,
          parameters: passThrough,
          inputSchema: tool.inputSchema,
          async execute(args, ctx) {
            await ctx.ask({
              permission: tool.name,
              patterns: ['*'],
              always: ['*'],
              title: `Call ${tool.tool} on the ${tool.server} MCP server`,
              metadata: { input: args },
            })
            const result = await manager.callTool(tool.name, args, ctx.signal)
            const parts = typeof result.output === 'string' ? [{ type: 'text' as const, text: result.output }] : result.output
            const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n')
            const attachments: ToolAttachment[] = parts.flatMap((p) => (p.type === 'image' ? [{ type: 'image' as const, mediaType: p.mediaType, data: p.data }] : []))
            if (result.isError) throw new Error(text || `${tool.tool} failed`)
            return {
              title: `${tool.server} · ${tool.tool}`,
              output: text || (attachments.length > 0 ? `(${attachments.length} image(s))` : '(no output)'),
              metadata: { server: tool.server, tool: tool.tool },
              ...(attachments.length > 0 ? { attachments } : {}),
            }
          },
        }),
    )
    this.bus.publish('mcp:tools', { tools: entry.tools.map((t) => t.id) }, projectId)
  }
}

/** `make()` on first use, the same value after. */
function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined
  return () => (value ??= { v: make() }).v
}
