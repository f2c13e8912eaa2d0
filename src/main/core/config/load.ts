import { readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { type ConfigFileRef, configInvalid } from './config-error'
import { parseJsonc } from './jsonc'
import { CONFIG_FILE_NAMES, type ConfigEnv, configFolders, displayPath, resolveHomeDir } from './locations'
import { mergeConfig } from './merge'
import { resolvePlaceholders } from './placeholders'
import { type WithheldItem, restrictLayer } from './restricted-layer'
import { layeredSandbox, type SandboxLayer } from './sandbox-layers'
import { type Config, ConfigLayerSchema, ConfigSchema, type PermissionConfig, PermissionConfigSchema } from './schema'
import { toConfigIssues } from './zod-issues'

export type ConfigSourceKind = 'global' | 'project' | 'dot-hotaru' | 'env' | 'managed'

export interface ConfigSource {
  /** Absolute path of the file, or `HOTARU_CONFIG_CONTENT`. */
  file: string
  kind: ConfigSourceKind
}

export interface LoadConfigOptions {
  projectDir: string
  /** The environment of the caller (never read from `process.env` here); also the source of `{env:VAR}` values. */
  env: ConfigEnv
  /** Defaults to `HOME` (or `USERPROFILE`) from `env`, then the OS home. */
  homeDir?: string
  platform?: NodeJS.Platform
  /**
   * Whether the project's own layers (the folders from the root down to the project,
   * and `.hotaru/`) apply in full. Untrusted, they only narrow: see `restrictLayer`.
   */
  trusted: boolean
  /** The user that parent-folder config files must belong to (default: this process's). */
  uid?: number
}

/** Rules of the user's own layers and of the managed layer: a later layer can never turn their `deny` into `allow`. */
export interface PermissionFloor {
  scope: 'user' | 'managed'
  permission?: PermissionConfig
  agent?: Record<string, PermissionConfig | undefined>
}

/** One layer's permission rules as applied (trust applied), for the permission policy. */
export interface PermissionLayerRules {
  source: ConfigSource
  permission?: PermissionConfig
  /** Each agent's own rules (`agent.<name>.permission`). */
  agent?: Record<string, PermissionConfig | undefined>
  /** A project layer of a folder that is not trusted: what it asked for before its `allow` rules were withheld. */
  requested?: { permission?: PermissionConfig; agent?: Record<string, PermissionConfig | undefined> }
}

export interface LoadedConfig {
  config: Config
  /** The layers that were applied, lowest precedence first. */
  sources: ConfigSource[]
  /** Problems that did not stop loading (unset `{env:VAR}`, duplicate keys…), to show the user. */
  warnings: string[]
  /** What the project's layers asked for and did not get because the folder is not trusted. */
  withheld: WithheldItem[]
  /** Deny rules no project layer can lift, also once trusted. */
  floors: PermissionFloor[]
  /** Every applied layer's permission rules, lowest precedence first (see `permission/policy.ts`). */
  permissionLayers: PermissionLayerRules[]
  /** Providers whose effective `baseURL` was set by a project layer: keys from env or the secret store are not sent there. */
  projectBaseURLs: string[]
}

/** The "file" named in errors and sources for config passed through the environment. */
export const ENV_CONFIG_SOURCE = 'HOTARU_CONFIG_CONTENT'

/**
 * The "file" named when every layer is valid but their combination is not (only
 * possible through MCP toggles of a server no layer defines).
 */
export const MERGED_CONFIG = 'merged config'

interface Layer {
  source: ConfigSource
  ref: ConfigFileRef
  text: string
  /** Where `{file:relative}` starts from. */
  baseDir: string
}

/**
 * Loads the effective config of a project. Layers, lowest precedence first:
 * global (`~/.config/hotaru`) → every `hotaru.json(c)` from the filesystem root down to
 * the project → `<project>/.hotaru/` → `HOTARU_CONFIG_CONTENT` → the managed folder.
 * Each layer is validated on its own, so an error names the file it is in, then the
 * deep-merged result is validated again. Any invalid layer fails the whole load with
 * a `ConfigInvalid` error: running with part of the user's config silently ignored
 * (a permission rule, say) would be worse than not running.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const { env, trusted } = options
  const platform = options.platform ?? process.platform
  const homeDir = options.homeDir ?? resolveHomeDir(env, platform)
  const projectDir = resolve(options.projectDir)
  const uid = options.uid ?? process.getuid?.()
  const warnings: string[] = []
  const withheld: WithheldItem[] = []
  const floors = { user: {} as unknown, managed: {} as unknown }
  const baseURLFrom = new Map<string, ConfigSourceKind>()
  const permissionLayers: PermissionLayerRules[] = []

  const layers = await collectLayers({ env, homeDir, platform, projectDir, uid }, warnings)
  let merged: unknown = {}
  const sandboxLayers: SandboxLayer[] = []
  for (const layer of layers) {
    let document = parseJsonc(layer.text, layer.ref, warnings)
    const project = isProjectLayer(layer.source.kind)
    const requested = project && !trusted ? requestedPermissions(document) : undefined
    if (project && !trusted) {
      const restricted = restrictLayer(document, layer.source.file)
      withheld.push(...restricted.withheld)
      document = restricted.document
    } else {
      document = await resolvePlaceholders(document, { file: layer.ref, baseDir: layer.baseDir, env, homeDir }, warnings)
    }
    const valid = validate(ConfigLayerSchema, document, layer.ref)
    if (valid.sandbox) sandboxLayers.push({ kind: layer.source.kind, sandbox: valid.sandbox })
    merged = mergeConfig(merged, valid)
    permissionLayers.push({ source: layer.source, permission: valid.permission, agent: agentPermissions(valid), ...(requested ? { requested } : {}) })
    if (!project) {
      const scope = layer.source.kind === 'managed' ? 'managed' : 'user'
      // Only what the layer sets: a key present as undefined would wipe an earlier layer's floor in the merge.
      const agent = definedAgentPermissions(valid)
      floors[scope] = mergeConfig(floors[scope], { ...(valid.permission ? { permission: valid.permission } : {}), ...(agent ? { agent } : {}) })
    }
    for (const [id, entry] of Object.entries(valid.provider ?? {})) if (entry.baseURL) baseURLFrom.set(id, layer.source.kind)
  }
  const config = validate(ConfigSchema, merged, { path: MERGED_CONFIG, display: `${MERGED_CONFIG} (${describeSources(layers, homeDir)})` })
  // A project layer may only tighten the sandbox, so it is not a plain deep merge.
  const sandbox = layeredSandbox(sandboxLayers)
  if (sandbox) config.sandbox = sandbox
  return {
    config,
    sources: layers.map((layer) => layer.source),
    warnings,
    withheld,
    floors: [
      { scope: 'user', ...(floors.user as Omit<PermissionFloor, 'scope'>) },
      { scope: 'managed', ...(floors.managed as Omit<PermissionFloor, 'scope'>) },
    ],
    permissionLayers,
    projectBaseURLs: [...baseURLFrom].filter(([, kind]) => isProjectLayer(kind)).map(([id]) => id),
  }
}

/** Layers that come with the folder (and so with a cloned repository), as opposed to the user's and the administrator's. */
export function isProjectLayer(kind: ConfigSourceKind): boolean {
  return kind === 'project' || kind === 'dot-hotaru'
}

function agentPermissions(layer: { agent?: Record<string, { permission?: PermissionConfig }> }): Record<string, PermissionConfig | undefined> | undefined {
  if (!layer.agent) return undefined
  return Object.fromEntries(Object.entries(layer.agent).map(([name, agent]) => [name, agent.permission]))
}

/** The agents' own rules of a layer, only for agents that have some. */
function definedAgentPermissions(layer: { agent?: Record<string, { permission?: PermissionConfig }> }): Record<string, PermissionConfig> | undefined {
  const entries = Object.entries(layer.agent ?? {}).flatMap(([name, agent]) => (agent.permission ? [[name, agent.permission] as const] : []))
  return entries.length > 0 ? Object.fromEntries(entries) : undefined
}

const RequestedPermissions = z.looseObject({
  permission: PermissionConfigSchema.optional(),
  agent: z.record(z.string(), z.looseObject({ permission: PermissionConfigSchema.optional() })).optional(),
})

/** What an untrusted project layer's rules were before narrowing (a shape that does not validate lists nothing). */
function requestedPermissions(document: unknown): PermissionLayerRules['requested'] {
  const parsed = RequestedPermissions.safeParse(document)
  if (!parsed.success) return undefined
  return { permission: parsed.data.permission, agent: agentPermissions(parsed.data) }
}

function describeSources(layers: Layer[], homeDir: string): string {
  if (layers.length === 0) return 'no files'
  return layers.map((layer) => (layer.source.kind === 'env' ? ENV_CONFIG_SOURCE : displayPath(layer.source.file, homeDir))).join(', ')
}

function validate<T>(schema: z.ZodType<T>, document: unknown, ref: ConfigFileRef): T {
  const result = schema.safeParse(document, { reportInput: true })
  if (result.success) return result.data
  throw configInvalid(ref, toConfigIssues(result.error.issues))
}

interface LayerContext {
  env: ConfigEnv
  homeDir: string
  platform: NodeJS.Platform
  projectDir: string
  uid: number | undefined
}

async function collectLayers(ctx: LayerContext, warnings: string[]): Promise<Layer[]> {
  const layers: Layer[] = []
  const seen = new Set<string>()
  const addDir = async (dir: string, kind: ConfigSourceKind, checkOwner = false): Promise<void> => {
    for (const layer of await readConfigDir(dir, kind, ctx.homeDir, warnings)) {
      if (checkOwner && !(await ownedSafely(dir, layer.source.file, ctx, warnings))) continue
      // The same file can be reached twice (a project inside the global config folder);
      // applying it again would only reorder its keys.
      if (seen.has(layer.source.file)) continue
      seen.add(layer.source.file)
      layers.push(layer)
    }
  }

  const content = ctx.env[ENV_CONFIG_SOURCE]
  for (const { dir, kind } of configFolders(ctx, ctx.projectDir)) {
    if (kind === 'managed' && content && content.trim() !== '') {
      layers.push({
        source: { file: ENV_CONFIG_SOURCE, kind: 'env' },
        ref: { path: ENV_CONFIG_SOURCE, display: ENV_CONFIG_SOURCE },
        text: content,
        baseDir: ctx.projectDir,
      })
    }
    // Parent folders may be shared (/tmp, a group folder): only files nobody else can have planted apply.
    await addDir(dir, kind, kind === 'project' && dir !== ctx.projectDir)
  }
  return layers
}

/**
 * A config file in a parent folder applies only when the folder and the file belong to
 * this user (or root) and neither is writable by group or others; otherwise another
 * local user could have written it. Skipped files are named in a warning.
 */
async function ownedSafely(dir: string, file: string, ctx: LayerContext, warnings: string[]): Promise<boolean> {
  if (ctx.platform === 'win32' || ctx.uid === undefined) return true
  const problems: string[] = []
  for (const [what, path] of [['folder', dir], ['file', file]] as const) {
    const info = await stat(path)
    if (info.uid !== ctx.uid && info.uid !== 0) problems.push(`the ${what} belongs to another user (uid ${info.uid})`)
    if ((info.mode & 0o022) !== 0) problems.push(`the ${what} is writable by ${(info.mode & 0o002) !== 0 ? 'others' : 'its group'}`)
  }
  if (problems.length === 0) return true
  warnings.push(`${displayPath(file, ctx.homeDir)}: skipped: ${problems.join(' and ')}`)
  return false
}

async function readConfigDir(dir: string, kind: ConfigSourceKind, homeDir: string, warnings: string[]): Promise<Layer[]> {
  const found: Layer[] = []
  for (const name of CONFIG_FILE_NAMES) {
    const file = join(dir, name)
    const ref = { path: file, display: displayPath(file, homeDir) }
    const text = await readOptional(ref)
    if (text !== undefined) found.push({ source: { file, kind }, ref, text, baseDir: dir })
  }
  if (found.length > 1) {
    warnings.push(`${displayPath(dir, homeDir)}: both ${CONFIG_FILE_NAMES.join(' and ')} exist; both are applied, the .jsonc one last`)
  }
  return found
}

/** The file's text, or undefined when it does not exist; any other failure is an error. */
async function readOptional(ref: ConfigFileRef): Promise<string | undefined> {
  try {
    // Editors on Windows may save a byte-order mark, which is not JSON.
    return (await readFile(ref.path, 'utf8')).replace(/^\uFEFF/, '')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    throw configInvalid(ref, [{ path: '', message: `cannot read the file (${code ?? String(error)})` }])
  }
}
