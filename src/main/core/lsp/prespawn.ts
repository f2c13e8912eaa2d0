import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { CONFIG_FILE_NAMES, configFolders, resolveHomeDir } from '../config/locations'
import { guardProcess, releaseProcess } from '../mcp/exit-guard'
import { noteChildStarted } from '../process/owner-marker'
import { startProcess } from '../process/spawn'
import { killTreeNow } from '../process/tree'
import { log } from '../util/log'
import { BACKGROUND_NICENESS, lowerProcessPriority } from '../util/thread-priority'
import { BUILTIN_SERVERS } from './catalog'
import { nativeTypescriptBinary, projectTypescriptLib } from './locate'
import type { ServerChild, ServerLaunch } from './process'
import { languagesInUse } from './seed'

/**
 * Starting the TypeScript server before the core's modules load (`hotaru run`). The native compiler takes
 * about 100 ms to come up, and the core about 300 ms to load: side by side, the server is ready to load the
 * project when the first turn starts it, instead of starting then. Kept free of the core's heavy modules (like
 * `git-status-run.ts`), and cautious, since the folder's trust and config are not known yet: only the app's own
 * `tsgo`, only in a project that uses TypeScript or JavaScript and has no TypeScript of its own, and not when any
 * config file names `lsp` (it may switch servers off or choose another). The first start of exactly the same
 * launch takes the process; one nobody took ends with `discardPrespawned` or with this process.
 */

interface Prespawned {
  key: string
  /** Resolves once the process runs; undefined when it could not start (the taker then starts its own). */
  child: Promise<ServerChild | undefined>
}

let waiting: Prespawned | undefined

/** The launch the core would make for TypeScript in `root` (canonical path), when it can be known now. */
export function typescriptLaunchAhead(root: string, env: NodeJS.ProcessEnv): ServerLaunch | undefined {
  const spec = BUILTIN_SERVERS.find((server) => server.id === 'typescript')
  if (!spec || !languagesInUse(root, spec) || projectTypescriptLib(root) !== undefined || configNamesLsp(root, env)) return undefined
  const command = nativeTypescriptBinary()
  if (!command) return undefined
  const defined: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value
  return { command, args: ['--lsp', '--stdio'], cwd: root, env: defined, niceness: BACKGROUND_NICENESS }
}

/** Starts `launch` for the next start of the same launch to take (see `takePrespawned`). */
export function prespawnServer(launch: ServerLaunch): void {
  if (waiting) return
  const child = startProcess(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] }).then(
    (started) =>
      new Promise<ServerChild | undefined>((resolve) => {
        started.on('error', () => resolve(undefined))
        started.once('spawn', () => {
          noteChildStarted()
          guardProcess(started.pid as number)
          // At once, as the taker would: its start (in a session of its own) otherwise competes with the core's load as an equal.
          if (launch.niceness !== undefined) lowerServerPriority(started.pid as number, launch.niceness)
          resolve(started as ServerChild)
        })
      }),
    // Not started: the taker starts its own, and reports why that fails if it does.
    () => undefined,
  )
  waiting = { key: launchKey(launch), child }
}

/**
 * Lowers a language server's priority (this one started ahead, or any other as it starts: `process.ts`). A server
 * that already exited is reported by its client; any other failure leaves it at normal priority, and says so.
 */
export function lowerServerPriority(pid: number, niceness: number): void {
  try {
    lowerProcessPriority(pid, niceness)
  } catch (error) {
    log.warn(`[lsp] language server ${pid} runs at normal priority: ${(error as Error).message}`)
  }
}

/** The process `prespawnServer` started for exactly this launch, once; undefined otherwise. */
export async function takePrespawned(launch: ServerLaunch): Promise<ServerChild | undefined> {
  if (!waiting) return undefined
  const early = waiting
  waiting = undefined
  const child = await early.child
  if (!child) return undefined
  if (early.key !== launchKey(launch) || child.exitCode !== null || child.signalCode !== null) {
    end(child)
    return undefined
  }
  // The taker guards it from now on.
  releaseProcess(child.pid as number)
  return child
}

/** Ends a started process nobody took. */
export async function discardPrespawned(): Promise<void> {
  const early = waiting
  waiting = undefined
  const child = await early?.child
  if (child) end(child)
}

function end(child: ServerChild): void {
  releaseProcess(child.pid as number)
  killTreeNow(child.pid as number)
}

function launchKey(launch: ServerLaunch): string {
  return JSON.stringify([launch.command, launch.args, launch.cwd, Object.entries(launch.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])
}

/** Config files larger than this are left to the config loader (which says what is wrong with them). */
const MAX_CONFIG_BYTES = 1024 * 1024

/**
 * Whether a config file or `HOTARU_CONFIG_CONTENT` may say anything about language servers. A file that cannot
 * be read as a small regular file counts as saying so: the config loader then reports it, and nothing ran early.
 */
function configNamesLsp(root: string, env: NodeJS.ProcessEnv): boolean {
  const names = (text: string | undefined): boolean => text !== undefined && /"lsp"\s*:/.test(text)
  if (names(env.HOTARU_CONFIG_CONTENT)) return true
  const ctx = { env, homeDir: resolveHomeDir(env, process.platform), platform: process.platform }
  for (const { dir } of configFolders(ctx, root)) {
    for (const name of CONFIG_FILE_NAMES) {
      const file = join(dir, name)
      let info
      try {
        info = statSync(file, { throwIfNoEntry: false })
        if (info === undefined) continue
        if (!info.isFile() || info.size > MAX_CONFIG_BYTES || names(readFileSync(file, 'utf8'))) return true
      } catch (error) {
        // Unreadable (permissions, a loop of links): the loader says so; here it only means "not sure".
        if (typeof (error as NodeJS.ErrnoException).code === 'string') return true
        throw error
      }
    }
  }
  return false
}
