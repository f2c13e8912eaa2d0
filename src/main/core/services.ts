import type { AppInfo } from '@shared/ipc/app'
import { APP_NAME, APP_VERSION } from './app/meta'
import type { FolderPicker } from './app/folder-picker'
import type { UrlOpener } from './app/url-opener'
import { EventBus, type EventCheck } from './bus/bus'
import { forgetInheritedPorts } from './project/command-env'
import { NoticeLog } from './project/notices'
import { ProjectManager } from './project/manager'
import type { ItemRevealer } from './project/reveal'
import { isStorageFailure, Storage, storageError, WalCheckpoints, type WalCheckpointsOptions } from './storage'
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
import { ProjectConfigs } from './config/project-configs'
import { TrustService } from './trust/trust-service'
import { isInside } from './trust/paths'
import { ReviewService } from './review/service'
import { WorktreeService } from './worktree/service'
import { SearchService } from './search/service'
import { log } from './util/log'
import { warmUp } from './warm-up'
import { BACKGROUND_NICENESS } from './util/thread-priority'
import { detached } from './util/detached'
import { loginShellEnv, pickShell, useProcessEnvironment } from './tools'
import { CommandSandbox, sandboxContext, sandboxPolicy, sandboxSupport } from './sandbox'
import { createLspTool, diagnosticsAfterTool, lateDiagnostics, LspService, settleDiagnostics } from './lsp'
import { createPreviewTools, PreviewManager, type DriverFactory } from './preview'
import { endOwnProcesses, installProcessMarker, ProcessSweeps } from './process/owner-marker'
import { SessionLocks } from './session/locks'

import { DEFAULT_MODEL_ID } from './config/project-config'
export { DEFAULT_MODEL_ID }

export interface ServicesOptions {
  dataDir: string
  /** Told when the data folder's disk is full and the database opened read-only (default: the log). */
  onStorageReadOnly?: (reason: string) => void
  transport: AppInfo['transport']
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
    /** Start a project's servers as it opens (default); off for commands that run no turn. */
    startWithProject?: boolean
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
  // Set once dispose has swept our processes: the exit hook then has nothing left to do.
  let swept = false
  let sweeps: ProcessSweeps | undefined
  if (options.ownProcesses) {
    installProcessMarker(options.dataDir)
    // What a run killed with SIGKILL left behind is ended a moment later, off the way to the first request.
    sweeps = new ProcessSweeps(options.dataDir)
    // Last resort on any exit path (a signal handler's process.exit included): synchronous, so it runs.
    process.once('exit', () => {
      if (!swept) endOwnProcesses()
    })
  }
  forgetInheritedPorts()
  // The desktop app may start from a launcher without the user's PATH: read the login shell's
  // environment once, now, in the background. The CLI and serve run in a shell that set it up.
  if (options.transport === 'electron') detached('login shell environment', loginShellEnv(pickShell()))
  else useProcessEnvironment()
  /**
   * The desktop app and `serve` keep an event loop that serves a window: their background work
   * yields to it. A one-shot CLI command has nothing else to serve and ends after its turn.
   */
  const servesUi = options.transport !== 'cli'
  const storage = Storage.open(options.dataDir, options.onStorageReadOnly ?? ((reason) => log.warn(`[storage] ${reason}`)))
  // Only UI hosts move SQLite's checkpoints off the loop.
  const walCheckpoints = servesUi ? new WalCheckpoints(storage.db, options.walCheckpoints) : undefined
  const bus = new EventBus({ check: options.checkEvent })
  const projects = new ProjectManager(storage, bus)
  const notices = new NoticeLog(bus)
  const sessions = new SessionStore(storage.sessions, bus)
  const secrets = options.secrets ?? new FileSecretStore(join(options.dataDir, 'secrets.json'))
  const env = options.env ?? process.env
  const providers = new ProviderRegistry({ env, secrets })
  const trust = new TrustService(storage.trust)
  const configs = new ProjectConfigs({ trust, env, bus })
  const permissions = new PermissionService({
    store: {
      list: (projectId) => storage.approvals.list(projectId),
      add: (projectId, rule) => storage.approvals.add(projectId, rule),
      remove: (projectId, rule) => storage.approvals.remove(projectId, rule.permission, rule.pattern),
    },
    // A worktree shares its main project's approvals: it is the same repository.
    ownerOf: (projectId) => storage.worktrees.byProject(projectId)?.parentId ?? projectId,
  })
  permissions.onEvent((event) => {
    if (event.type === 'asked') bus.publish('permission:asked', event, event.request.projectId)
    else bus.publish('permission:replied', event, event.projectId)
  })
  const questions = new QuestionService()
  questions.onEvent((event) => {
    if (event.type === 'asked') bus.publish('question:asked', event, event.question.projectId)
    else bus.publish('question:answered', event, event.projectId)
  })
  const urlOpener = options.urlOpener
  // A server that opts into the sandbox runs confined even while bash is not (`sandbox.enabled` off).
  const mcp = new McpRuntime(bus, (projectId) => projects.find(projectId), secrets, urlOpener ? (url) => urlOpener.open(url) : undefined, (projectRoot, config) =>
    new CommandSandbox(
      sandboxPolicy({ ...config.sandbox, enabled: true }, sandboxContext({ projectRoot, dataDir: options.dataDir, env })),
      sandboxSupport(env),
    ),
  )
  const lsp = new LspService({
    bus,
    kv: storage.kv,
    dataDir: options.dataDir,
    env,
    configOf: async (project) => (await configs.of(project).load()).config,
    trusted: (project) => trust.isTrusted(project.trustRoot),
    // Servers are background work everywhere: a turn never waits for them, and a tsserver loading a project takes both cores.
    niceness: BACKGROUND_NICENESS,
    ...options.lsp,
  })
  const lspTool = createLspTool((projectId) => lsp.for(projects.get(projectId)))
  // A project's servers start as it opens (in `hotaru run`, while the first request is out). A restricted
  // folder starts only what its first edit would: servers from outside it, none named by its own config.
  projects.onOpened((project) => {
    if (options.lsp?.startWithProject === false) return
    configs
      .of(project)
      .load()
      .then(({ config }) => {
        if (config.lsp !== false && projects.find(project.id) === project) lsp.for(project, config).prestart()
      })
      .catch((error: unknown) => log.warn(`[lsp] servers of project ${project.id} not started: ${(error as Error).message}`))
  })
  // Asks and questions of a project end with it (their turns are cancelled first; this catches the rest).
  projects.onOpened((project) => {
    const { id } = project
    project.track({
      cancel: (reason) => {
        permissions.cancelProject(id, reason)
        questions.cancelProject(id, reason)
      },
    })
  })
  // MCP servers start when a project opens, in the background; a turn waits for them to settle.
  projects.onOpened((project) => detached('mcp start', startMcp(project.id)))
  const startMcp = async (projectId: string): Promise<void> => {
    try {
      const project = projects.get(projectId)
      // A worktree's sessions get the servers only where the main project asks for that (`worktree.mcp`).
      if (project.worktreeOf && (await configs.of(project.worktreeOf).load()).config.worktree?.mcp !== true) return
      await mcp.ensure(project, await configs.of(project).load())
    } catch (error) {
      // An invalid config is reported when a turn starts; MCP just stays off meanwhile.
      log.warn(`[mcp] servers of project ${projectId} not started: ${(error as Error).message}`)
    }
  }
  const previews = new PreviewManager({ bus, trust, configs, env, dataDir: options.dataDir, ...(options.previewDriver ? { driver: options.previewDriver } : {}) })
  const tools = new ToolRuntimes({
    permissions,
    questions,
    kv: storage.kv,
    bus,
    outputRoot: join(options.dataDir, 'tool-output'),
    extraTools: (projectId) => mcp.toolsOf(projectId),
    coreTools: [lspTool, ...createPreviewTools((projectId) => previews.for(projects.get(projectId)))],
    providers,
    postSteps: [
      // Language server diagnostics after edits (and a warm server after reads).
      ({ project, config, tool, metadata, failed, signal, sessionId }) =>
        config.lsp === false
          ? Promise.resolve(undefined)
          : diagnosticsAfterTool(lsp.for(project, config), { tool, sessionId, metadata, failed, signal, waitMs: lsp.waitMs, quietMs: lsp.quietMs }),
    ],
    // …and what a server that was starting or slow reports later, with the next request or before the turn ends.
    // A project whose servers never started owes nothing: its turns do not load the language-server code.
    lateFacts: {
      take: (project, config, sessionId, options) => {
        const servers = config.lsp === false ? undefined : lsp.running(project)
        return servers ? lateDiagnostics(servers, sessionId, options) : []
      },
      settle: (project, config, sessionId, signal) => {
        const servers = config.lsp === false ? undefined : lsp.running(project)
        return servers ? settleDiagnostics(servers, sessionId, { maxMs: lsp.settleMs, quietMs: lsp.quietMs, signal }) : Promise.resolve([])
      },
    },
  })
  const sessionLocks = new SessionLocks(storage.sessionLocks, hostLabel(options.transport))
  const checkpoints = new CheckpointService(
    storage.checkpoints,
    projects,
    sessions,
    bus,
    options.dataDir,
    storage.kv,
    (project) => configs.of(project).last?.config,
    // One-shot CLI commands end before a tree-wide watcher would pay off.
    {
      changeFeed: servesUi,
      // …and end after their turn: a first walk still running then is stopped, not awaited.
      stopWalksAtTurnEnd: !servesUi,
      // Tests of that stop hold the walk until the turn ends (see `SnapshotEngineOptions.stoppableWalkStallMs`).
      walkStallMs: Number(env.HOTARU_WALK_STALL_MS ?? 0) || 0,
      keep: (projectId) => storage.worktrees.list(projectId).filter((w) => w.kind === 'copy').map((w) => w.base),
      // A restore never changes files under a turn running in the project, in this process or another.
      refuseWhileRunning: (projectId, what) => sessionLocks.refuseWhileRunning(projectId, what),
    },
  )
  if (servesUi) {
    // The desktop app and `serve` keep a change feed per open tab from the start (in the snapshot
    // worker), so the watcher's start-up crawl runs in the background before the first message, not during it.
    // The engine is built from the project's config (its snapshot excludes, size limit and quota), so
    // that is read first; an invalid one leaves the start to the first message, which reports it.
    projects.onOpened((project) => {
      configs
        .of(project)
        .load()
        .then(() => {
          if (projects.find(project.id) === project) checkpoints.engine(project)
        })
        .catch((error: unknown) => log.warn(`[checkpoint] change feed of project ${project.id} not started: ${(error as Error).message}`))
    })
  }
  const reviews = new ReviewService({ kv: storage.kv, checkpoints, projects, sessions })
  const search = new SearchService(projects, bus)
  const agents = new AgentService(
    sessions,
    providers,
    bus,
    turnEnvironment({ projects, configs, tools, mcp, bus, env, dataDir: options.dataDir }),
    (sessionId, turnId) => permissions.endTurn(sessionId, turnId),
    checkpoints,
    (projectId) => projects.find(projectId),
    sessionLocks,
    (error) => (isStorageFailure(error) ? storageError(storage.db.name, error, 'saving the session') : error),
  )
  const worktrees = new WorktreeService({ storage, projects, configs, checkpoints, agents, sessions, bus, dataDir: options.dataDir })
  // A new decision applies at once to the open projects below the folder: their config is
  // re-read, their MCP servers restarted (started now, or stopped when trust is taken back) and
  // their language servers looked up again where the folder's own copies matter.
  trust.onChange((change) => {
    // A worktree's project follows the decision of its main project.
    const affected = projects.instances().filter((project) => isInside(change.path, project.trustRoot))
    const tabs = affected.filter((project) => !project.worktreeOf)
    bus.publish('trust:changed', { ...change, projectIds: tabs.map((project) => project.id) })
    for (const project of affected) {
      configs.of(project).reset()
      mcp
        .stop(project)
        .then(() => startMcp(project.id))
        .catch((error: unknown) => log.warn(`[mcp] servers of project ${project.id} did not stop: ${(error as Error).message}`))
      lsp
        .for(project)
        .trustChanged()
        .catch((error: unknown) => log.warn(`[lsp] servers of project ${project.id} did not restart: ${(error as Error).message}`))
    }
  })
  // Editing the folder's own config or extension files changes what restricted mode withholds:
  // re-read it (new warnings become notices) and let clients refresh the trust status. Only
  // where the file watcher runs anyway (a tab showing the tree); the CLI re-reads per command.
  bus.on('fs:changed', ({ changes }, { projectId }) => {
    if (projectId === undefined) return
    if (!changes.some((change) => touchesProjectConfig(change.path))) return
    if (!projects.list().some((info) => info.id === projectId)) return
    const project = projects.get(projectId)
    configs
      .of(project)
      .load()
      .then((snapshot) => bus.publish('trust:changed', { path: project.root, trusted: snapshot.trust.trusted, projectIds: [projectId] }))
      .catch((error: unknown) => log.warn(`[config] ${project.root}: ${(error as Error).message}`))
  })
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
      dataDir: options.dataDir,
      capabilities: { pickFolder: options.folderPicker !== undefined, dropPaths: options.dropPaths ?? false },
    }),
    warmUp: () =>
      warmUp({
        providers,
        lsp,
        models: async () => {
          const open = projects.instances().filter((project) => !project.worktreeOf)
          if (open.length === 0) return [env.HOTARU_MODEL ?? DEFAULT_MODEL_ID]
          // An invalid config is reported when a turn starts; its project's model is then loaded there.
          const loaded = await Promise.allSettled(open.map(async (project) => (await configs.of(project).load()).defaults.model))
          return loaded.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
        },
      }),
    async dispose() {
      if (disposed) return
      disposed = true
      try {
        worktrees.dispose()
        search.dispose()
        await agents.abortAll()
        await projects.dispose()
      } finally {
        sessions.dispose()
        notices.dispose()
        await walCheckpoints?.dispose()
        storage.close()
        // What graceful shutdown did not reach (a grandchild that left our process group with setsid).
        if (sweeps) {
          sweeps.endAtShutdown()
          swept = true
        }
      }
    },
  }
}

/** A project-relative path that holds config, MCP servers, tools, agents or hooks of the folder. */
function touchesProjectConfig(path: string): boolean {
  const normalized = path.split('\\').join('/')
  return /^(?:\.hotaru\/)?hotaru\.jsonc?$/.test(normalized) || normalized === '.mcp.json' || /^\.hotaru\/(?:tools|agents)\//.test(normalized)
}
