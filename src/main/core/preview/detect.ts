import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { HotaruError } from '@shared/errors'
import type { PreviewSource } from '@shared/schema/preview'
import { resolveInside } from '../project/boundary'
import { LAUNCH_FILE, readLaunchFile, type LaunchConfiguration } from './launch-config'

/** How long a server may take to answer before its start counts as failed, unless the configuration says. */
export const DEFAULT_READY_TIMEOUT_MS = 60_000

/** A launch configuration resolved against a project: what to run (or serve), where, and which URL to wait for. */
export interface ResolvedLaunch {
  name: string
  source: PreviewSource
  /** A shell command line, or undefined for the built-in static server. */
  command?: string
  /** For the static server: the absolute folder served. */
  staticRoot?: string
  /** Absolute working directory (inside the project). */
  cwd: string
  env: Record<string, string>
  /** A fixed port the server listens on (else the project's preview port). */
  port?: number
  /** URL template; `${port}` is replaced. */
  url: string
  readyTimeoutMs: number
  /** Whether it runs code of the folder (a launch file's or package.json's command): refused until the folder is trusted. */
  runsFolderCode: boolean
}

export const DEFAULT_URL = 'http://127.0.0.1:${port}/'

type PackageJson = { scripts?: Record<string, unknown>; dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> }

function readPackageJson(root: string): PackageJson | undefined {
  const path = join(root, 'package.json')
  if (!existsSync(path)) return undefined
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return typeof parsed === 'object' && parsed !== null ? (parsed as PackageJson) : undefined
  } catch (error) {
    throw new HotaruError('PreviewConfigInvalid', { message: `package.json: ${(error as Error).message}`, file: 'package.json' })
  }
}

/** The package manager the lockfile names (npm without one). */
export function packageManager(root: string): 'npm' | 'pnpm' | 'yarn' | 'bun' {
  if (existsSync(join(root, 'pnpm-lock.yaml'))) return 'pnpm'
  if (existsSync(join(root, 'yarn.lock'))) return 'yarn'
  if (existsSync(join(root, 'bun.lockb')) || existsSync(join(root, 'bun.lock'))) return 'bun'
  return 'npm'
}

/** Vite and Next ignore `$PORT` (Vite) or bind every interface: they are told the port and loopback host on the command line. */
function scriptLaunch(root: string, script: 'dev' | 'start', body: string): ResolvedLaunch {
  const pm = packageManager(root)
  const run = pm === 'npm' ? `npm run ${script} --` : `${pm} run ${script}`
  const base = { name: script, cwd: root, env: {}, url: DEFAULT_URL, readyTimeoutMs: DEFAULT_READY_TIMEOUT_MS, runsFolderCode: true }
  if (/\bvite\b/.test(body) && !/\bvite\s+(build|preview)\b/.test(body)) {
    return { ...base, source: 'vite', command: `${run} --port "$PORT" --strictPort --host 127.0.0.1` }
  }
  if (/\bnext\s+(dev|start)\b/.test(body)) return { ...base, source: 'next', command: `${run} -p "$PORT" -H 127.0.0.1` }
  return { ...base, source: 'package.json', command: `${pm} run ${script}` }
}

function fromConfiguration(root: string, configuration: LaunchConfiguration): ResolvedLaunch {
  const cwd = resolveInside(root, configuration.cwd ?? '')
  return {
    name: configuration.name,
    source: 'launch.json',
    ...(configuration.command !== undefined ? { command: configuration.command } : {}),
    ...(configuration.static !== undefined ? { staticRoot: resolveInside(root, configuration.static) } : {}),
    cwd,
    env: configuration.env ?? {},
    ...(configuration.port !== undefined ? { port: configuration.port } : {}),
    url: configuration.url ?? DEFAULT_URL,
    readyTimeoutMs: (configuration.readyTimeout ?? DEFAULT_READY_TIMEOUT_MS / 1000) * 1000,
    runsFolderCode: configuration.command !== undefined,
  }
}

/**
 * How to preview the project at `root`: the launch file's configuration `name` (its first without
 * one), else a `dev` or `start` script of package.json (Vite and Next recognised), else a Vite
 * config with Vite installed, else an `index.html` (at the root or in `public/`) served statically.
 */
export function resolveLaunch(root: string, name?: string): ResolvedLaunch {
  const configurations = readLaunchFile(root)
  if (configurations) {
    const chosen = name === undefined ? configurations[0] : configurations.find((c) => c.name === name)
    if (!chosen) {
      throw new HotaruError('PreviewConfigNotFound', { message: `${LAUNCH_FILE} has no configuration "${name}" (it has ${configurations.map((c) => `"${c.name}"`).join(', ')})` })
    }
    return fromConfiguration(root, chosen)
  }
  if (name !== undefined && name !== 'dev' && name !== 'start' && name !== 'static') {
    throw new HotaruError('PreviewConfigNotFound', { message: `no ${LAUNCH_FILE}, so there is no configuration "${name}"` })
  }
  const scripts = readPackageJson(root)?.scripts ?? {}
  for (const script of ['dev', 'start'] as const) {
    const body = scripts[script]
    if (typeof body === 'string' && (name === undefined || name === script)) return scriptLaunch(root, script, body)
  }
  const viteBin = join(root, 'node_modules', '.bin', 'vite')
  const viteConfig = ['vite.config.ts', 'vite.config.js', 'vite.config.mjs', 'vite.config.mts'].some((f) => existsSync(join(root, f)))
  if (name === undefined && viteConfig && existsSync(viteBin)) {
    return {
      name: 'vite',
      source: 'vite',
      command: `./node_modules/.bin/vite --port "$PORT" --strictPort --host 127.0.0.1`,
      cwd: root,
      env: {},
      url: DEFAULT_URL,
      readyTimeoutMs: DEFAULT_READY_TIMEOUT_MS,
      runsFolderCode: true,
    }
  }
  for (const folder of ['', 'public']) {
    if (name !== undefined && name !== 'static') break
    if (!existsSync(join(root, folder, 'index.html'))) continue
    return {
      name: 'static',
      source: 'static',
      staticRoot: join(root, folder),
      cwd: root,
      env: {},
      url: DEFAULT_URL,
      readyTimeoutMs: DEFAULT_READY_TIMEOUT_MS,
      runsFolderCode: false,
    }
  }
  throw new HotaruError('PreviewConfigNotFound', {
    message: `nothing to preview: no ${LAUNCH_FILE}, no "dev" or "start" script in package.json and no index.html. Add ${LAUNCH_FILE} with {"configurations":[{"name":"web","command":"…"}]}`,
  })
}
