import type { AppInfo } from '@shared/ipc/app'
import { APP_NAME, APP_VERSION } from './app/meta'
import type { FolderPicker } from './app/folder-picker'
import { EventBus } from './bus/bus'
import { ProjectManager } from './project/manager'
import type { ItemRevealer } from './project/reveal'
import { Storage } from './storage'
import { join } from 'node:path'
import { AgentService } from './agent/service'
import { turnEnvironment } from './agent/environment'
import { ToolRuntimes } from './agent/project-tools'
import { QuestionService } from './agent/questions'
import { PermissionService } from './permission'
import { ProviderRegistry } from './provider'
import { FileSecretStore, PLAIN_CODEC, type SecretStore } from './secrets/file-store'
import { SessionStore } from './session/store'
import { McpRuntime } from './agent/mcp-runtime'
import { CheckpointService } from './checkpoint/service'
import { loadConfig } from './config'
import { log } from './util/log'
import { detached } from './util/detached'
import { endOrphanedProcesses, endOwnProcesses, installProcessMarker } from './util/process-marker'

/** The model new sessions use unless config or the user picks another. */
export const DEFAULT_MODEL_ID = 'anthropic/claude-sonnet-4-6'

export interface ServicesOptions {
  dataDir: string
  transport: AppInfo['transport']
  /** better-sqlite3 addon for a non-Node ABI (the desktop app's Electron build). */
  nativeBinding?: string
  folderPicker?: FolderPicker
  /** Whether dropped files carry filesystem paths (Electron only). */
  dropPaths?: boolean
  /** "Reveal in file manager" (Electron only). */
  revealer?: ItemRevealer
  /** API keys and tokens kept by the app; default: a 0600 file in the data dir (the desktop app encrypts with safeStorage). */
  secrets?: SecretStore
  /** How `secrets` protects values, for the settings UI. */
  secretsProtection?: string
  /** Opens a URL in the system browser (MCP sign-in); the desktop app passes shell.openExternal. */
  openUrl?: (url: URL) => void | Promise<void>
  /** Environment for config placeholders and provider credentials (tests pass their own). */
  env?: NodeJS.ProcessEnv
  /**
   * The app's own process (CLI, serve, desktop): marks every child so that nothing it started survives it,
   * and ends what an earlier run killed with SIGKILL left behind. Off in tests that share one process.
   */
  ownProcesses?: boolean
}

/** The composition root of the core: one object, built in one place, passed down. */
export interface Services {
  readonly storage: Storage
  readonly bus: EventBus
  readonly projects: ProjectManager
  readonly folderPicker?: FolderPicker
  readonly revealer?: ItemRevealer
  readonly sessions: SessionStore
  readonly providers: ProviderRegistry
  readonly permissions: PermissionService
  readonly questions: QuestionService
  readonly tools: ToolRuntimes
  readonly agents: AgentService
  readonly mcp: McpRuntime
  readonly checkpoints: CheckpointService
  readonly secrets: SecretStore
  readonly secretsProtection: string
  /** The model new sessions start with (`HOTARU_MODEL`, else the built-in default). */
  defaultModel(): string
  info(): AppInfo
  dispose(): Promise<void>
}

export function createServices(options: ServicesOptions): Services {
  if (options.ownProcesses) {
    installProcessMarker()
    endOrphanedProcesses()
    // Last resort on any exit path (a signal handler's process.exit included): synchronous, so it runs.
    process.once('exit', () => endOwnProcesses())
  }
  const storage = Storage.open(options.dataDir, { nativeBinding: options.nativeBinding })
  const bus = new EventBus()
  const projects = new ProjectManager(storage, bus)
  const sessions = new SessionStore(storage.sessions, bus)
  const secrets = options.secrets ?? new FileSecretStore(join(options.dataDir, 'secrets.json'))
  const providers = new ProviderRegistry({ env: options.env, secrets })
  const permissions = new PermissionService({
    store: {
      list: (projectId) => storage.approvals.list(projectId),
      add: (projectId, rule) => storage.approvals.add(projectId, rule),
    },
  })
  permissions.onEvent((event) => bus.publish(`permission:${event.type}`, event, projectOf(event)))
  const questions = new QuestionService()
  questions.onEvent((event) =>
    bus.publish(`question:${event.type}`, event, event.type === 'asked' ? event.question.projectId : event.projectId),
  )
  const mcp = new McpRuntime(bus, (projectId) => projects.find(projectId), secrets, options.openUrl)
  // Asks and questions of a project end with it (their turns are cancelled first; this catches the rest).
  bus.subscribe((event) => {
    if (event.channel !== 'project:opened') return
    const { id } = event.envelope.payload as { id: string }
    projects.find(id)?.track({
      cancel: (reason) => {
        permissions.cancelProject(id, reason)
        questions.cancelProject(id, reason)
      },
    })
  })
  // MCP servers start when a project opens, in the background; a turn waits for them to settle.
  bus.subscribe((event) => {
    if (event.channel !== 'project:opened') return
    const { id } = event.envelope.payload as { id: string }
    detached('mcp start', startMcp(id))
  })
  const startMcp = async (projectId: string): Promise<void> => {
    try {
      const project = projects.get(projectId)
      const { config } = await loadConfig({ projectDir: project.root, env: options.env })
      await mcp.ensure(project, config)
    } catch (error) {
      // An invalid config is reported when a turn starts; MCP just stays off meanwhile.
      log.warn(`[mcp] servers of project ${projectId} not started: ${(error as Error).message}`)
    }
  }
  const tools = new ToolRuntimes({
    permissions,
    questions,
    kv: storage.kv,
    bus,
    outputRoot: join(options.dataDir, 'tool-output'),
    extraTools: (projectId) => mcp.toolsOf(projectId),
  })
  const checkpoints = new CheckpointService(storage.checkpoints, projects, sessions, bus, options.dataDir, storage.kv)
  const agents = new AgentService(
    sessions,
    providers,
    bus,
    turnEnvironment({ projects, providers, tools, mcp, bus, env: options.env }),
    (sessionId, turnId) => permissions.endTurn(sessionId, turnId),
    checkpoints,
    (projectId) => projects.find(projectId),
  )
  let disposed = false
  return {
    storage,
    bus,
    projects,
    folderPicker: options.folderPicker,
    revealer: options.revealer,
    sessions,
    providers,
    permissions,
    questions,
    tools,
    agents,
    mcp,
    checkpoints,
    secrets,
    secretsProtection: options.secretsProtection ?? PLAIN_CODEC.protection,
    defaultModel: () => (options.env ?? process.env).HOTARU_MODEL ?? DEFAULT_MODEL_ID,
    info: () => ({
      name: APP_NAME,
      version: APP_VERSION,
      platform: process.platform,
      transport: options.transport,
      dataDir: options.dataDir,
      capabilities: { pickFolder: options.folderPicker !== undefined, dropPaths: options.dropPaths ?? false },
    }),
    async dispose() {
      if (disposed) return
      disposed = true
      try {
        await agents.abortAll()
        await projects.dispose()
      } finally {
        sessions.dispose()
        storage.close()
        // What graceful shutdown did not reach (a grandchild that left our process group with setsid).
        if (options.ownProcesses) endOwnProcesses()
      }
    },
  }
}

function projectOf(event: { type: 'asked'; request: { projectId: string } } | { type: 'replied'; projectId: string }): string {
  return event.type === 'asked' ? event.request.projectId : event.projectId
}
