import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { z } from 'zod'
import { type ConfigFileRef, configInvalid } from './config-error'
import { parseJsonc } from './jsonc'
import {
  CONFIG_FILE_NAMES,
  type ConfigEnv,
  DOT_HOTARU_DIR,
  ancestorsRootFirst,
  displayPath,
  globalConfigDir,
  managedConfigDir,
  resolveHomeDir,
} from './locations'
import { mergeConfig } from './merge'
import { resolvePlaceholders } from './placeholders'
import { layeredSandbox, type SandboxLayer } from './sandbox-layers'
import { type Config, ConfigLayerSchema, ConfigSchema } from './schema'
import { toConfigIssues } from './zod-issues'

export type ConfigSourceKind = 'global' | 'project' | 'dot-hotaru' | 'env' | 'managed'

export interface ConfigSource {
  /** Absolute path of the file, or `HOTARU_CONFIG_CONTENT`. */
  file: string
  kind: ConfigSourceKind
}

export interface LoadConfigOptions {
  projectDir: string
  /** Defaults to `process.env`; also the source of `{env:VAR}` values. */
  env?: ConfigEnv
  /** Defaults to `HOME` (or `USERPROFILE`) from `env`, then the OS home. */
  homeDir?: string
  platform?: NodeJS.Platform
}

export interface LoadedConfig {
  config: Config
  /** The layers that were applied, lowest precedence first. */
  sources: ConfigSource[]
  /** Problems that did not stop loading (unset `{env:VAR}`, duplicate keys…), to show the user. */
  warnings: string[]
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
  const env = options.env ?? process.env
  const platform = options.platform ?? process.platform
  const homeDir = options.homeDir ?? resolveHomeDir(env, platform)
  const projectDir = resolve(options.projectDir)
  const warnings: string[] = []

  const layers = await collectLayers({ env, homeDir, platform, projectDir }, warnings)
  let merged: unknown = {}
  const sandboxLayers: SandboxLayer[] = []
  for (const layer of layers) {
    const document = parseJsonc(layer.text, layer.ref, warnings)
    const resolved = await resolvePlaceholders(document, { file: layer.ref, baseDir: layer.baseDir, env, homeDir }, warnings)
    const valid = validate(ConfigLayerSchema, resolved, layer.ref)
    if (valid.sandbox) sandboxLayers.push({ kind: layer.source.kind, sandbox: valid.sandbox })
    merged = mergeConfig(merged, valid)
  }
  const config = validate(ConfigSchema, merged, { path: MERGED_CONFIG, display: `${MERGED_CONFIG} (${describeSources(layers, homeDir)})` })
  // A project layer may only tighten the sandbox, so it is not a plain deep merge.
  const sandbox = layeredSandbox(sandboxLayers)
  if (sandbox) config.sandbox = sandbox
  return { config, sources: layers.map((layer) => layer.source), warnings }
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
}

async function collectLayers(ctx: LayerContext, warnings: string[]): Promise<Layer[]> {
  const layers: Layer[] = []
  const seen = new Set<string>()
  const addDir = async (dir: string, kind: ConfigSourceKind): Promise<void> => {
    for (const layer of await readConfigDir(dir, kind, ctx.homeDir, warnings)) {
      // The same file can be reached twice (a project inside the global config folder);
      // applying it again would only reorder its keys.
      if (seen.has(layer.source.file)) continue
      seen.add(layer.source.file)
      layers.push(layer)
    }
  }

  await addDir(globalConfigDir(ctx), 'global')
  for (const dir of ancestorsRootFirst(ctx.projectDir)) await addDir(dir, 'project')
  await addDir(join(ctx.projectDir, DOT_HOTARU_DIR), 'dot-hotaru')
  const content = ctx.env[ENV_CONFIG_SOURCE]
  if (content && content.trim() !== '') {
    layers.push({
      source: { file: ENV_CONFIG_SOURCE, kind: 'env' },
      ref: { path: ENV_CONFIG_SOURCE, display: ENV_CONFIG_SOURCE },
      text: content,
      baseDir: ctx.projectDir,
    })
  }
  await addDir(managedConfigDir(ctx), 'managed')
  return layers
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
