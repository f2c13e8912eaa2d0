import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { McpLocalConfig } from '../config/schema'
import type { StdioLaunch } from './stdio-transport'

export interface LaunchContext {
  projectRoot: string
  /** The environment servers inherit (the app's own). */
  env: Readonly<Record<string, string | undefined>>
  /** PATH to start with (the login shell's, see `shell-path.ts`). */
  path: string
}

/** The executable and its arguments, from either config form (`["npx", "x"]`, or `"npx"` + `args`). */
export function localArgv(config: McpLocalConfig): { command: string; args: string[] } {
  const [command, ...rest] = typeof config.command === 'string' ? [config.command] : config.command
  return { command: command ?? '', args: [...rest, ...(config.args ?? [])] }
}

/**
 * How a stdio server is started: in the project folder unless the config says
 * otherwise (relative paths are from the project), with the app's environment, the
 * login shell's PATH, and the server's own `env` on top.
 */
export function stdioLaunch(config: McpLocalConfig, ctx: LaunchContext): StdioLaunch {
  const { command, args } = localArgv(config)
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(ctx.env)) if (value !== undefined) env[key] = value
  env.PATH = ctx.path
  Object.assign(env, config.env)
  return { command, args, env, cwd: config.cwd ? expandHome(resolveFrom(ctx.projectRoot, config.cwd)) : ctx.projectRoot }
}

function resolveFrom(root: string, path: string): string {
  return path === '~' || path.startsWith('~/') ? path : resolve(root, path)
}

function expandHome(path: string): string {
  if (path === '~') return homedir()
  return path.startsWith('~/') ? join(homedir(), path.slice(2)) : path
}
