import type { AppInfo } from '@shared/ipc/app'
import { join } from 'node:path'
import { APP_NAME, APP_VERSION } from './app/meta'
import type { FolderPicker } from './app/folder-picker'
import type { UrlOpener } from './app/url-opener'
import { attachAll } from './attach'
import { EventBus, type EventCheck } from './bus/bus'
import { prepareHostProcess } from './host-process'
import { NoticeLog } from './project/notices'
import { ProjectManager } from './project/manager'
import type { ItemRevealer } from './project/reveal'
import { isStorageFailure, Storage, storageError, WalCheckpoints, type WalCheckpointsOptions } from './storage'
import { AgentService } from './agent/service'
import { turnEnvironment } from './agent/environment'
import { ToolRuntimes } from './agent/project-tools'
import { QuestionService } from './agent/questions'
import { PermissionService, type ApprovalStore } from './permission'
import { ProviderRegistry } from './provider'
import { FileSecretStore, PLAIN_CODEC, type SecretStore } from './secrets/file-store'
import { SessionStore } from './session/store'
import { McpRuntime } from './agent/mcp-runtime'
import { CheckpointService } from './checkpoint/service'
import { ProjectConfigs } from './config/project-configs'
import { TrustService } from './trust/trust-service'
import { ReviewService } from './review/service'
import { WorktreeService } from './worktree/service'
import { SearchService } from './search/service'
import { log } from './util/log'
import { warmUp } from './warm-up'
import { BACKGROUND_NICENESS } from './util/thread-priority'
import { optInSandbox } from './sandbox'
import { createLspTool, LspService } from './lsp'
import { createPreviewTools, PreviewManager, type DriverFactory } from './preview'
import { SessionLocks } from './session/locks'
import { lspFeature } from './lsp/turn-facts'
import { checkpointsFeature } from './agent/features/checkpoints'

import { DEFAULT_MODEL_ID } from './config/project-config'
export { DEFAULT_MODEL_ID }

export interface ServicesOptions {
  dataDir: string
  /** Told when the data folder's disk is full and the database opened read-only (default: the log). */
  onStorageReadOnly?: (reason: string) => void
  transport: AppInfo['transport']
  /** How often an open tab's folder is looked at for being gone or back (default `PRESENCE_INTERVAL_MS`). */
  presenceIntervalMs?: number
  folderPicker?: FolderPicker
  /** Whether dropped files carry filesystem paths (Electron only). */
  dropPaths?: boolean
  /** "Reveal in file manager" (Electron only). */
  revealer?: ItemRevealer
  /** API keys and tokens kept by the app; default: a 0600 file in the data dir (the desktop app encrypts with safeStorage). */
  secrets?: SecretStore
  /** How `secrets` protects values, for the settings UI. */
  secretsProtection?: string
  /** Whether the OS encrypts `secrets` (false for a plain 0600 file or Chromium's basic_text store). */
  secretsEncrypted?: boolean
  /** Opens a URL in the system browser (MCP sign-in; the desktop app's shell.openExternal). Without one the link is shown. */
  urlOpener?: UrlOpener
  /** Environment for config placeholders and provider credentials (tests pass their own). */
  env?: NodeJS.ProcessEnv
  /** Language server settings that are not config: waits (tests on a busy machine), install without asking (CLI flag). */
  lsp?: {
    waitMs?: number
    quietMs?: number
    settleMs?: number
    installWithoutAsking?: boolean
    restartDelaysMs?: readonly number[]
    /** When a project's servers start: as it opens (default), with its first turn, or on first use only. */
    startWithProject?: boolean | 'first-turn'
  }
  /**
   * The app's own process (CLI, serve, desktop): marks every child so that nothing it started survives it,
   * and ends what an earlier run killed with SIGKILL left behind. Off in tests that share one process.
   */
  ownProcesses?: boolean
  /** Checks every event payload before it is delivered (`checkEvent`, from `loadEventCheck`; tests and development). */
  checkEvent?: EventCheck
  /** When the background thread of a UI host copies the database's log back (tests use small sizes). */
  walCheckpoints?: WalCheckpointsOptions
  /** The browser the preview tools drive (the desktop app's pane); default headless Chromium over CDP. */
  previewDriver?: DriverFactory
}

/** The composition root of the core: one object, built in one place, passed down. */
export interface Services {
  readonly storage: Storage
  /** The database's WAL checkpoints off the event loop (hosts with a UI only). */
  readonly walCheckpoints?: WalCheckpoints
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
  readonly lsp: LspService
  readonly reviews: ReviewService
  readonly search: SearchService
  /** Worktrees of projects: sessions in their own copy, merged back with a preview. */
  readonly worktrees: WorktreeService
  /** The dev-server preview of each open project and worktree. */
  readonly previews: PreviewManager
  readonly secrets: SecretStore
  readonly secretsProtection: string
  readonly secretsEncrypted: boolean
  /** Workspace trust decisions per folder. */
  readonly trust: TrustService
  /** The one config service per open project (trust applied). */
  readonly configs: ProjectConfigs
  /** Each open project's notices (config, extension files, MCP warnings), for the notices area. */
  readonly notices: NoticeLog
  /** The environment the core reads (config placeholders, provider keys, the user config folder). */
  readonly env: NodeJS.ProcessEnv
  info(): AppInfo
  /** Hosts with a UI call this once they started: see `warmUp`. */
  warmUp(): Promise<void>
  dispose(): Promise<void>
}

/** How other processes name this one in a busy session's message. */
function hostLabel(transport: ServicesOptions['transport']): string {
  if (transport === 'serve') return 'hotaru serve'
  if (transport === 'electron') return 'the Hotaru app'
  return process.argv[2] ? `hotaru ${process.argv[2]}` : 'hotaru'
}

export function createServices(options: ServicesOptions): Services {
  const host = prepareHostProcess(options)
  /**
   * The desktop app and `serve` keep an event loop that serves a window: their background work
   * yields to it. A one-shot CLI command has nothing else to serve and ends after its turn.
   */
  const servesUi = options.transport !== 'cli'
  const { dataDir } = options
  const env = options.env ?? process.env
  const storage = Storage.open(dataDir, options.onStorageReadOnly ?? ((reason) => log.warn(`[storage] ${reason}`)))
  // Only UI hosts move SQLite's checkpoints off the loop.
  const walCheckpoints = servesUi ? new WalCheckpoints(storage.db, options.walCheckpoints) : undefined
  const bus = new EventBus({ check: options.checkEvent })
  const projects = new ProjectManager(storage, bus, options.presenceIntervalMs)
  const notices = new NoticeLog(bus)
  const sessions = new SessionStore(storage.sessions, bus)
  const secrets = options.secrets ?? new FileSecretStore(join(dataDir, 'secrets.json'))
  const providers = new ProviderRegistry({ env, secrets })
  const trust = new TrustService(storage.trust)
  const configs = new ProjectConfigs({ trust, env, bus })
  const permissions = new PermissionService({
    store: approvalStoreOf(storage),
    // A worktree shares its main project's approvals: it is the same repository.
    ownerOf: (projectId) => storage.worktrees.byProject(projectId)?.parentId ?? projectId,
  })
  const questions = new QuestionService()
  const urlOpener = options.urlOpener
  const mcp = new McpRuntime(bus, (projectId) => projects.find(projectId), secrets, urlOpener ? (url) => urlOpener.open(url) : undefined, optInSandbox(dataDir, env))
  const lsp = new LspService({
    bus,
    kv: storage.kv,
    dataDir,
    env,
    configOf: async (project) => (await configs.of(project).load()).config,
    trusted: (project) => trust.isTrusted(project.trustRoot),
    // Servers are background work everywhere: a turn never waits for them, and a tsserver loading a project takes both cores.
    niceness: BACKGROUND_NICENESS,
    ...options.lsp,
  })
  const previews = new PreviewManager({ bus, trust, configs, env, dataDir, ...(options.previewDriver ? { driver: options.previewDriver } : {}) })
  const tools = new ToolRuntimes({
    permissions,
    questions,
    kv: storage.kv,
    bus,
    outputRoot: join(dataDir, 'tool-output'),
    extraTools: (projectId) => mcp.toolsOf(projectId),
    coreTools: [createLspTool((projectId) => lsp.for(projects.get(projectId))), ...createPreviewTools((projectId) => previews.for(projects.get(projectId)))],
    providers,
  })
  const sessionLocks = new SessionLocks(storage.sessionLocks, hostLabel(options.transport))
  const checkpoints = new CheckpointService(storage.checkpoints, projects, sessions, bus, dataDir, storage.kv, (project) => configs.of(project).last?.config, {
    // One-shot CLI commands end before a tree-wide watcher would pay off…
    changeFeed: servesUi,
    // …and end after their turn: a first walk still running then is stopped, not awaited.
    stopWalksAtTurnEnd: !servesUi,
    // Tests of that stop hold the walk until the turn ends (see `SnapshotEngineOptions.stoppableWalkStallMs`).
    walkStallMs: Number(env.HOTARU_WALK_STALL_MS ?? 0) || 0,
    keep: (projectId) => storage.worktrees.list(projectId).filter((w) => w.kind === 'copy').map((w) => w.base),
    // A restore never changes files under a turn running in the project, in this process or another.
    refuseWhileRunning: (projectId, what) => sessionLocks.refuseWhileRunning(projectId, what),
  })
  const reviews = new ReviewService({ kv: storage.kv, checkpoints, projects, sessions })
  const search = new SearchService(projects, bus)
  const agents = new AgentService(
    sessions,
    providers,
    bus,
    turnEnvironment({ projects, configs, tools, mcp, bus, env, dataDir }),
    (sessionId, turnId) => permissions.endTurn(sessionId, turnId),
    // The order in which they run at each point of a turn is `TURN_HOOK_ORDER`.
    { checkpoints: checkpointsFeature(checkpoints), lsp: lspFeature(lsp) },
    (projectId) => projects.find(projectId),
    sessionLocks,
    (error) => (isStorageFailure(error) ? storageError(storage.db.name, error, 'saving the session') : error),
  )
  const worktrees = new WorktreeService({ storage, projects, configs, checkpoints, agents, sessions, bus, dataDir })
  // What each module does when a project opens or closes or a trust decision is made lives in its `attach`.
  // Listeners of the same news run in this order: a trust decision resets the configs before servers restart.
  const attachments = attachAll({ bus, projects, trust, configs }, [configs, permissions, questions, lsp, mcp, checkpoints])
  let disposed = false
  return {
    storage,
    ...(walCheckpoints ? { walCheckpoints } : {}),
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
    lsp,
    reviews,
    search,
    worktrees,
    previews,
    secrets,
    secretsProtection: options.secretsProtection ?? PLAIN_CODEC.protection,
    secretsEncrypted: options.secretsEncrypted ?? PLAIN_CODEC.encrypted ?? false,
    trust,
    configs,
    notices,
    env,
    info: () => ({
      name: APP_NAME,
      version: APP_VERSION,
      platform: process.platform,
      transport: options.transport,
      dataDir,
      capabilities: { pickFolder: options.folderPicker !== undefined, dropPaths: options.dropPaths ?? false },
    }),
    warmUp: () => warmUp({ providers, lsp, models: () => openProjectModels(projects, configs, env) }),
    async dispose() {
      if (disposed) return
      disposed = true
      try {
        worktrees.dispose()
        search.dispose()
        await agents.abortAll()
        await projects.dispose()
      } finally {
        // After the projects closed (their asks were cancelled through the attachments): no listener remains.
        await attachments.dispose()
        sessions.dispose()
        notices.dispose()
        await walCheckpoints?.dispose()
        storage.close()
        await host.dispose()
      }
    },
  }
}

/** Remembered approvals live in the database. */
function approvalStoreOf(storage: Storage): ApprovalStore {
  return {
    list: (projectId) => storage.approvals.list(projectId),
    add: (projectId, rule) => storage.approvals.add(projectId, rule),
    remove: (projectId, rule) => storage.approvals.remove(projectId, rule.permission, rule.pattern),
  }
}

/** The models the open projects use (the default one when none is open), for the warm-up. */
async function openProjectModels(projects: ProjectManager, configs: ProjectConfigs, env: NodeJS.ProcessEnv): Promise<string[]> {
  const open = projects.instances().filter((project) => !project.worktreeOf)
  if (open.length === 0) return [env.HOTARU_MODEL ?? DEFAULT_MODEL_ID]
  // An invalid config is reported when a turn starts; its project's model is then loaded there.
  const loaded = await Promise.allSettled(open.map(async (project) => (await configs.of(project).load()).defaults.model))
  return loaded.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
}
