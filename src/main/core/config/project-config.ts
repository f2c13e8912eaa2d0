import type { Disposable } from '../util/disposable'
import type { ProviderSettings } from '../provider/settings'
import type { TrustService, TrustState } from '../trust/trust-service'
import { folderInventory } from '../trust/inventory'
import { DEFAULT_AGENT } from '../agent/agents'
import { type LoadedConfig, type PermissionFloor, type PermissionLayerRules, loadConfig } from './load'
import { type ConfigEnv, globalConfigDir, resolveHomeDir } from './locations'
import type { WithheldItem } from './restricted-layer'
import type { Config } from './schema'

/** The model new sessions use unless config, `HOTARU_MODEL` or the user picks another. */
export const DEFAULT_MODEL_ID = 'anthropic/claude-sonnet-5-5'

export interface ConfigLocations {
  projectRoot: string
  homeDir: string
  globalConfigDir: string
}

/** One load of a project's config, with everything that depends on the folder's trust. */
export interface ProjectConfigSnapshot {
  config: Config
  sources: LoadedConfig['sources']
  warnings: string[]
  trust: TrustState
  /**
   * What the folder asked for and did not get: config items, `.mcp.json` servers,
   * custom tool files, agent-file widenings. Empty once trusted.
   */
  withheld: WithheldItem[]
  floors: PermissionFloor[]
  /** Each applied layer's permission rules (see `permission/policy.ts`). */
  permissionLayers: PermissionLayerRules[]
  locations: ConfigLocations
  /** `config.provider` for the provider layer, passed with each request. */
  providerSettings: ProviderSettings
  /** What a new session starts with: the one rule for the default agent and model. */
  defaults: { agent: string; model: string }
}

export interface ProjectConfigOptions {
  trust: TrustService
  /** The folder whose trust decision applies (a worktree follows its main project); default: the root. */
  trustRoot?: string
  /** The environment of the app (tests pass their own); the only source of `{env:…}` and provider keys. */
  env: ConfigEnv
  homeDir?: string
  platform?: NodeJS.Platform
  /** Shown to the user once per distinct message (warnings, what restricted mode withheld). */
  notify?: (level: 'info' | 'warning', message: string) => void
}

/**
 * The config of one project: the only place that calls `loadConfig`, so every key,
 * file and extension a folder brings passes the same trust gate. Re-read on each
 * `load()` (turns, MCP start, session defaults) so edits apply at once; the last
 * snapshot is kept for synchronous readers. Owned by the ProjectInstance.
 */
export class ProjectConfig implements Disposable {
  private current: ProjectConfigSnapshot | undefined
  private readonly told = new Set<string>()

  constructor(
    readonly root: string,
    private readonly options: ProjectConfigOptions,
  ) {}

  /** The last snapshot, if one was loaded. */
  get last(): ProjectConfigSnapshot | undefined {
    return this.current
  }

  async load(): Promise<ProjectConfigSnapshot> {
    const { env, trust } = this.options
    const platform = this.options.platform ?? process.platform
    const homeDir = this.options.homeDir ?? resolveHomeDir(env, platform)
    const state = trust.state(this.options.trustRoot ?? this.root)
    const loaded = await loadConfig({ projectDir: this.root, env, homeDir, platform, trusted: state.trusted })
    const withheld = state.trusted ? [] : [...loaded.withheld, ...(await folderInventory(this.root))]
    const snapshot: ProjectConfigSnapshot = {
      config: loaded.config,
      sources: loaded.sources,
      warnings: loaded.warnings,
      trust: state,
      withheld,
      floors: loaded.floors,
      permissionLayers: loaded.permissionLayers,
      locations: { projectRoot: this.root, homeDir, globalConfigDir: globalConfigDir({ env, homeDir, platform }) },
      providerSettings: providerSettingsOf(loaded),
      defaults: {
        agent: loaded.config.defaultAgent ?? DEFAULT_AGENT,
        model: loaded.config.model ?? env.HOTARU_MODEL ?? DEFAULT_MODEL_ID,
      },
    }
    this.current = snapshot
    this.tell(snapshot)
    return snapshot
  }

  /** Forgets what was already said, so a changed trust decision is announced again. */
  reset(): void {
    this.told.clear()
    this.current = undefined
  }

  dispose(): void {
    this.reset()
  }

  private tell(snapshot: ProjectConfigSnapshot): void {
    const notify = this.options.notify
    if (!notify) return
    const messages: Array<['info' | 'warning', string]> = snapshot.warnings.map((w) => ['warning', w])
    if (snapshot.withheld.length > 0) messages.push(['info', restrictedSummary(snapshot.withheld, this.root)])
    for (const [level, message] of messages) {
      if (this.told.has(message)) continue
      this.told.add(message)
      notify(level, message)
    }
  }
}

const KIND_LABEL: Record<WithheldItem['kind'], string> = {
  mcp: 'MCP server',
  tool: 'tool',
  hook: 'hook',
  permission: 'permission rule',
  provider: 'provider setting',
  shell: 'shell',
  agent: 'agent setting',
  placeholder: 'placeholder',
}

/** The text the CLI prints and the app shows: each withheld item, and how to trust the folder. */
export function restrictedSummary(withheld: readonly WithheldItem[], root: string): string {
  const lines = withheld.map((item) => `  - ${KIND_LABEL[item.kind]}: ${item.detail} (${item.file})`)
  return [
    `Restricted mode: ${root} is not trusted, so its own config and files did not run or widen anything:`,
    ...lines,
    `Trust the folder to allow them: hotaru trust --dir ${JSON.stringify(root)} (or "Trust" in the app).`,
  ].join('\n')
}

function providerSettingsOf(loaded: LoadedConfig): ProviderSettings {
  const fromProject = new Set(loaded.projectBaseURLs)
  const providers = Object.fromEntries(
    Object.entries(loaded.config.provider ?? {}).map(([id, entry]) => [id, { ...entry, ...(fromProject.has(id) ? { baseURLFromProject: true } : {}) }]),
  )
  return { providers, ...(loaded.config.stallTimeoutMs ? { stallTimeoutMs: loaded.config.stallTimeoutMs } : {}) }
}
