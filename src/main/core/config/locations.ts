import { homedir } from 'node:os'
import path from 'node:path'

export type ConfigEnv = Readonly<Record<string, string | undefined>>

/** Names looked for in every config folder; a later name is applied over an earlier one. */
export const CONFIG_FILE_NAMES = ['hotaru.json', 'hotaru.jsonc'] as const

/** Folder inside a project that holds its private config (and, later, tools, agents, skills). */
export const DOT_HOTARU_DIR = '.hotaru'

export interface PlatformContext {
  env: ConfigEnv
  homeDir: string
  platform: NodeJS.Platform
}

/** Paths for the target platform even when computed elsewhere (tests pass `platform`). */
function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix
}

/** The user's home: `HOME` (or `USERPROFILE` on Windows) from the given env, else the OS answer. */
export function resolveHomeDir(env: ConfigEnv, platform: NodeJS.Platform): string {
  const fromEnv = platform === 'win32' ? (env.USERPROFILE ?? env.HOME) : env.HOME
  return fromEnv || homedir()
}

/**
 * The user's config folder: `%APPDATA%\hotaru` on Windows, otherwise
 * `$XDG_CONFIG_HOME/hotaru` or `~/.config/hotaru` (macOS included, as CLI tools
 * conventionally do, so one dotfile setup works on both).
 */
export function globalConfigDir({ env, homeDir, platform }: PlatformContext): string {
  const p = pathFor(platform)
  if (platform === 'win32') return p.join(env.APPDATA || p.join(homeDir, 'AppData', 'Roaming'), 'hotaru')
  return p.join(env.XDG_CONFIG_HOME || p.join(homeDir, '.config'), 'hotaru')
}

/**
 * The administrator's config folder, applied over every other layer so an
 * organization can enforce settings. `HOTARU_MANAGED_CONFIG_DIR` overrides the
 * system location (tests and custom deployments).
 */
export function managedConfigDir({ env, platform }: Pick<PlatformContext, 'env' | 'platform'>): string {
  if (env.HOTARU_MANAGED_CONFIG_DIR) return env.HOTARU_MANAGED_CONFIG_DIR
  const p = pathFor(platform)
  if (platform === 'darwin') return '/Library/Application Support/Hotaru'
  if (platform === 'win32') return p.join(env.ProgramData || env.PROGRAMDATA || 'C:\\ProgramData', 'Hotaru')
  return '/etc/hotaru'
}

/** `dir` and each of its ancestors, the filesystem root first and `dir` last. */
export function ancestorsRootFirst(dir: string): string[] {
  const chain: string[] = []
  let current = path.resolve(dir)
  for (;;) {
    chain.push(current)
    const parent = path.dirname(current)
    if (parent === current) break
    current = parent
  }
  return chain.reverse()
}

/** `~/…` for files under the home folder: shorter and the way users write these paths. */
export function displayPath(file: string, homeDir: string): string {
  const rel = path.relative(homeDir, file)
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return file
  return `~${path.sep}${rel}`
}

/** A folder config files are read from, and what kind of layer its files are. */
export interface ConfigFolder {
  dir: string
  kind: 'global' | 'project' | 'dot-hotaru' | 'managed'
}

/**
 * The folders whose `hotaru.json(c)` apply to a project, lowest precedence first: global, every folder from the
 * filesystem root down to the project, `<project>/.hotaru`, then (after `HOTARU_CONFIG_CONTENT`) the managed one.
 */
export function configFolders(ctx: PlatformContext, projectDir: string): ConfigFolder[] {
  return [
    { dir: globalConfigDir(ctx), kind: 'global' },
    ...ancestorsRootFirst(projectDir).map((dir): ConfigFolder => ({ dir, kind: 'project' })),
    { dir: path.join(projectDir, DOT_HOTARU_DIR), kind: 'dot-hotaru' },
    { dir: managedConfigDir(ctx), kind: 'managed' },
  ]
}
