import { join } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { LspServerStatus } from '@shared/ipc/lsp'
import type { EventBus } from '../bus/bus'
import type { Config, ConfigEnv } from '../config'
import { loginShellPathOnce } from '../mcp/shell-path'
import type { ProjectInstance } from '../project/instance'
import { ServiceKey } from '../project/service-key'
import type { KvRepo } from '../storage/kv-repo'
import { owned, projectsUnder, type AttachContext } from '../attach'
import { DisposableStore, type Disposable } from '../util/disposable'
import { log } from '../util/log'
import { installPackages } from './install'
import { ProjectLsp } from './project-lsp'

export interface LspServiceOptions {
  bus?: EventBus
  kv?: KvRepo
  dataDir: string
  env?: ConfigEnv
  /** The project's config as its ProjectConfig loads it (workspace trust applied). */
  configOf: (project: ProjectInstance) => Promise<Config>
  /** Whether the project's folder is trusted now (its own `node_modules` may then provide servers). */
  trusted: (project: ProjectInstance) => boolean
  /** Longest an edit waits for a warm server's diagnostics (default 1 s; a starting server is never waited for). */
  waitMs?: number
  /** A report is complete once servers were quiet this long (default 200 ms). */
  quietMs?: number
  /** Longest the end of a turn waits for the reports its edits are still owed (default 5 s). */
  settleMs?: number
  /**
   * When a project's servers start: as it opens (`true`, the default: the app and serve), with its first turn
   * once that turn's message is stored and its first request is going out (`'first-turn'`: `hotaru run`, whose
   * start-up they would otherwise slow), or on first use only (`false`: commands that run no turn).
   */
  startWithProject?: boolean | 'first-turn'
  /** Install missing npm servers without asking (the CLI's `--install-lsp`). */
  installWithoutAsking?: boolean
  /** Look at the app's own node_modules for servers (default true). */
  bundled?: boolean
  restartDelaysMs?: readonly number[]
  /**
   * Scheduling niceness of every server: in hosts with a UI, servers are background work (a
   * `tsserver` loading a large project takes both cores for seconds) and yield to the process
   * serving the window.
   */
  niceness?: number
}

const SERVICE_KEY = new ServiceKey<ProjectLsp>('lsp')

/**
 * How long after a turn's message is stored its servers start in `'first-turn'` mode: its first request is on the
 * wire by then (about 30 ms), and a hosted model has not answered yet (a few hundred ms at the least).
 */
const FIRST_REQUEST_HEAD_START_MS = 100
const decisionKey = (pkg: string): string => `lsp.install.${pkg}`

/** Language servers for every open project; each project's servers are owned by its ProjectInstance. */
export class LspService {
  readonly waitMs: number
  readonly quietMs: number
  readonly settleMs: number
  private installWithoutAsking: boolean
  private readonly startedWithTurn = new WeakSet<ProjectInstance>()
  /** The open projects, once attached. */
  private open: AttachContext['projects'] | undefined

  constructor(private readonly options: LspServiceOptions) {
    this.waitMs = options.waitMs ?? 1_000
    this.quietMs = options.quietMs ?? 200
    this.settleMs = options.settleMs ?? 5_000
    this.installWithoutAsking = options.installWithoutAsking ?? false
  }

  /**
   * A project's servers start as it opens (in `hotaru run`, while the first request is out). A restricted folder
   * starts only what its first edit would: servers from outside it, none named by its own config. A trust decision
   * makes the servers of the projects below the folder look again for the folder's own copies.
   */
  attach({ projects, trust, configs }: AttachContext): Disposable {
    this.open = projects
    const store = new DisposableStore()
    store.add(
      owned(
        projects.onOpened((project) => {
          if (this.options.startWithProject === false || this.options.startWithProject === 'first-turn') return
          configs
            .of(project)
            .load()
            .then(({ config }) => {
              if (config.lsp !== false && projects.find(project.id) === project) this.for(project, config).prestart()
            })
            .catch((error: unknown) => log.warn(`[lsp] servers of project ${project.id} not started: ${(error as Error).message}`))
        }),
      ),
    )
    store.add(
      owned(
        trust.onChange((change) => {
          for (const project of projectsUnder(projects, change.path)) {
            this.for(project)
              .trustChanged()
              .catch((error: unknown) => log.warn(`[lsp] servers of project ${project.id} did not restart: ${(error as Error).message}`))
          }
        }),
      ),
    )
    return store
  }

  /**
   * A turn's message is stored and its first request goes out next: in `'first-turn'` mode the project's servers
   * start once per project, `FIRST_REQUEST_HEAD_START_MS` later, so their start (the protocol's code, the handshake,
   * the first file) does not hold up the request. A tool that touches a file of theirs before then starts them then.
   */
  turnStarted(project: ProjectInstance, config: Config): void {
    if (this.options.startWithProject !== 'first-turn' || config.lsp === false || this.startedWithTurn.has(project)) return
    this.startedWithTurn.add(project)
    // Not for a project closed in between (a turn refused at once, a run that ends).
    setTimeout(() => {
      if (this.open?.find(project.id) === project) this.for(project, config).prestart()
    }, FIRST_REQUEST_HEAD_START_MS).unref()
  }

  /** Loads the client's module graph (the JSON-RPC protocol), which the first server start would otherwise load. */
  async warm(): Promise<void> {
    await import('./client')
  }

  get installDir(): string {
    return join(this.options.dataDir, 'lsp')
  }

  /** `--install-lsp`: missing npm servers are installed without asking for the rest of this process. */
  allowInstall(): void {
    this.installWithoutAsking = true
  }

  /** The project's servers (created on first use, ended with the project); `config` re-applies settings. */
  for(project: ProjectInstance, config?: Config): ProjectLsp {
    const lsp = project.service(SERVICE_KEY, () => this.create(project))
    if (config) lsp.configure(config)
    return lsp
  }

  /** The project's servers when something already started them (nothing is owed to a turn otherwise). */
  running(project: ProjectInstance): ProjectLsp | undefined {
    return project.existing(SERVICE_KEY)
  }

  /** Like `for`, reading the project's config (trust applied) first. */
  async load(project: ProjectInstance): Promise<ProjectLsp> {
    return this.for(project, await this.options.configOf(project))
  }

  private create(project: ProjectInstance): ProjectLsp {
    const env = this.options.env ?? process.env
    return new ProjectLsp({
      root: project.root,
      installDir: this.installDir,
      env,
      loginPath: async () => (await loginShellPathOnce(env)).path,
      install: (packages) => installPackages(this.installDir, packages, env),
      installDecision: (pkg) => this.options.kv?.get<'yes' | 'no'>(decisionKey(pkg)),
      installAllowed: () => this.installWithoutAsking,
      onStatus: (status) => this.options.bus?.publish('lsp:status', status, project.id),
      onDiagnostics: (file) => this.options.bus?.publish('lsp:diagnostics', file, project.id),
      bundled: this.options.bundled,
      projectCode: () => this.options.trusted(project),
      restartDelaysMs: this.options.restartDelaysMs,
      niceness: this.options.niceness,
    })
  }

  /** The user's answer to "install this server?", remembered for every project; yes starts it. */
  async answerInstall(project: ProjectInstance, serverId: string, allow: boolean): Promise<LspServerStatus> {
    const lsp = await this.load(project)
    const handle = lsp.handleById(serverId)
    const npm = handle?.server.spec.npm
    if (!handle || !npm) throw new HotaruError(ErrorNames.NotFound, { message: `no installable language server "${serverId}"` })
    this.options.kv?.set(decisionKey(npm.package), allow ? 'yes' : 'no')
    // Either way the server is looked up again: installed and started, or shown as declined.
    await handle.restart()
    return handle.status()
  }
}
