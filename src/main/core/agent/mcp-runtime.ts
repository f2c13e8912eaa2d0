import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { EventBus } from '../bus/bus'
import type { Config } from '../config'
import type { ProjectConfigSnapshot } from '../config/project-config'
import type { McpManager, McpServerStatus } from '../mcp'
import type { SecretStore } from '../secrets/file-store'
import type { ProjectInstance } from '../project/instance'
import type { CommandSandbox } from '../sandbox/sandbox'
import { defineTool, type Tool, type ToolAttachment } from '../tools'

const SERVICE_KEY = 'mcp'

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
export class McpRuntime {
  private readonly tools = new Map<string, Tool[]>()
  private readonly managers = new Map<string, McpManager>()

  constructor(
    private readonly bus: EventBus,
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
    const existing = this.managers.get(project.id)
    if (existing) {
      await existing.start()
      return existing
    }
    if (!hasServers(project, config, trusted)) return undefined
    const { McpManager } = await import('../mcp')
    const sandboxFor = this.sandboxFor
    const manager = project.service(SERVICE_KEY, () => {
      const created = new McpManager({
        servers: config.mcp,
        projectRoot: project.root,
        projectMcpJson: trusted,
        onStatus: (status) => this.bus.publish('mcp:status', status, project.id),
        onToolsChanged: () => this.refresh(project.id, created),
        onWarning: (message) => this.bus.publish('mcp:warning', { message }, project.id),
        secrets: this.secrets,
        ...(sandboxFor ? { sandbox: once(() => sandboxFor(project.root, config)) } : {}),
        openUrl:
          this.openUrl ??
          ((url) => {
            this.bus.publish('project:notice', { projectId: project.id, level: 'info', message: `Sign in to the MCP server: ${url.href}` }, project.id)
          }),
      })
      return {
        manager: created,
        dispose: () => {
          this.managers.delete(project.id)
          this.tools.delete(project.id)
          return created.dispose()
        },
      }
    }).manager
    this.managers.set(project.id, manager)
    await manager.start()
    this.refresh(project.id, manager)
    return manager
  }

  /** Ends the project's servers so that the next `ensure` starts them from the current config (after a trust change). */
  async stop(project: ProjectInstance): Promise<void> {
    const manager = this.managers.get(project.id)
    if (!manager) return
    this.managers.delete(project.id)
    this.tools.delete(project.id)
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

  manager(projectId: string): McpManager | undefined {
    return this.managers.get(projectId)
  }

  statuses(projectId: string): McpServerStatus[] {
    return this.managers.get(projectId)?.statuses() ?? []
  }

  /** The connected servers' tools, as the tool host offers them. */
  toolsOf(projectId: string): Tool[] {
    return this.tools.get(projectId) ?? []
  }

  private refresh(projectId: string, manager: McpManager): void {
    this.tools.set(
      projectId,
      manager.listTools().map((tool) =>
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
      ),
    )
    this.bus.publish('mcp:tools', { tools: this.toolsOf(projectId).map((t) => t.id) }, projectId)
  }
}

/** `make()` on first use, the same value after. */
function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined
  return () => (value ??= { v: make() }).v
}
