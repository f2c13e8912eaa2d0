import type { EventBus } from '../bus/bus'
import type { ProjectConfigs } from '../config/project-configs'
import type { ProjectInstance } from '../project/instance'
import { ServiceKey } from '../project/service-key'
import { terminalsOf } from '../pty/terminal-host'
import { pickShell } from '../tools/bash/shell-env'
import type { TrustService } from '../trust/trust-service'
import type { BrowserDriver, DriverFactory, DriverOptions } from './driver'
import { commandSandbox } from '../sandbox/project'
import { sandboxContext } from '../sandbox/status'
import type { ShellSpec } from '../pty/shell'
import { confineForTerminal } from './confine'
import { PreviewService, type Confined } from './service'

const SERVICE_KEY = new ServiceKey<PreviewService>('preview')

export interface PreviewManagerOptions {
  bus: EventBus
  trust: TrustService
  configs: ProjectConfigs
  /** The browser the agent tools drive; the desktop app passes its pane's. Default: headless system Chromium over CDP. */
  driver?: DriverFactory
  /** For finding Chromium (`HOTARU_CHROMIUM`, PATH). */
  env?: NodeJS.ProcessEnv
  /** The app's data dir: hidden from a sandboxed dev server, as from every sandboxed command. */
  dataDir: string
}

/** The preview of every open project and worktree: one `PreviewService` each, ended with its project. */
export class PreviewManager {
  constructor(private readonly options: PreviewManagerOptions) {}

  for(project: ProjectInstance): PreviewService {
    return project.service(SERVICE_KEY, (p) => {
      const { bus } = this.options
      return new PreviewService({
        project: p,
        trusted: () => this.options.trust.isTrusted(p.trustRoot),
        terminals: () => terminalsOf(p, bus),
        shell: () => pickShell(this.options.configs.of(p).last?.config.shell),
        confine: (command, cwd, env) => this.confine(p, command, cwd, env),
        driver: this.options.driver ?? ((options) => this.headless(p, options)),
        onStatus: (status) => bus.publish('preview:status', status, p.id),
        onConsole: (entry) => bus.publish('preview:console', { projectId: p.id, entry }, p.id),
      })
    })
  }

  /** With `sandbox.enabled`, a launch command runs in the OS sandbox like any command (its ports stay reachable). */
  private async confine(project: ProjectInstance, command: ShellSpec, cwd: string, env: Record<string, string>): Promise<Confined | undefined> {
    const { config } = await this.options.configs.of(project).load()
    const processEnv = this.options.env ?? process.env
    const sandbox = commandSandbox(config.sandbox, sandboxContext({ projectRoot: project.root, dataDir: this.options.dataDir, env: processEnv }))
    if (!sandbox) return undefined
    return confineForTerminal(sandbox, command, cwd, env)
  }

  /** Headless Chromium (`HOTARU_CHROMIUM`, the `preview.chromium` key, PATH); its code loads only when a preview is driven. */
  private async headless(project: ProjectInstance, options: DriverOptions): Promise<BrowserDriver> {
    const { config } = await this.options.configs.of(project).load()
    const [{ findChromium }, { CdpDriver }] = await Promise.all([import('./chromium'), import('./cdp-driver')])
    return CdpDriver.launch(findChromium({ ...(this.options.env ? { env: this.options.env } : {}), configured: config.preview?.chromium }), options)
  }

  /** The preview of a project if one was used (never creates one). */
  existing(project: ProjectInstance): PreviewService | undefined {
    return project.existing(SERVICE_KEY)
  }
}
