import { spawn } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'
import { guardProcess, releaseProcess } from '../mcp/exit-guard'
import { startProcess, type StartedProcess } from '../process/spawn'
import { describeLeft, killTree } from '../process/tree'
import { lowerServerPriority, takePrespawned } from './prespawn'

/** How a language server process is started. */
export interface ServerLaunch {
  command: string
  args: string[]
  cwd: string
  env: Record<string, string>
  /**
   * Scheduling niceness, set as the server starts (before it is sent anything, so the processes
   * it starts, `tsserver` among them, inherit it). Unset: this process's own.
   */
  niceness?: number
}

/** A server process: started with three pipes. */
export type ServerChild = StartedProcess & { readonly stdin: Writable; readonly stdout: Readable; readonly stderr: Readable }

/** A started server process; `stop()` ends its whole tree. */
export interface ServerProcess {
  readonly child: ServerChild
  readonly pid: number
  stop(graceMs?: number): Promise<void>
}

/**
 * The one place a language server process is spawned. Anything that must wrap
 * every server (the OS sandbox, trust checks) wraps this function. The server
 * gets its own process group so `typescript-language-server` and the `tsserver`
 * processes it starts end together; the exit guard kills the tree if the host
 * exits without disposing its projects.
 */
export async function spawnServerProcess(launch: ServerLaunch): Promise<ServerProcess> {
  // Started before the core loaded, for exactly this launch (`hotaru run`, see prespawn.ts).
  const early = await takePrespawned(launch)
  if (early) {
    // Errors after the start end in 'exit', which the client reports.
    early.on('error', () => undefined)
    return running(early, launch)
  }
  const child = await startServer(launch)
  return new Promise((resolve, reject) => {
    // Before 'spawn' an error means it could not start; later ones (a broken pipe) end in 'exit', which the client reports.
    child.on('error', (error) => {
      if (child.pid === undefined) reject(error)
    })
    child.once('spawn', () => resolve(running(child, launch)))
  })
}

/** A server process that runs: guarded until stopped, at its launch's priority. */
function running(child: ServerChild, launch: ServerLaunch): ServerProcess {
  const pid = child.pid as number
  guardProcess(pid)
  if (launch.niceness !== undefined) lowerServerPriority(pid, launch.niceness)
  let stopping: Promise<void> | undefined
  return {
    child,
    pid,
    stop: (graceMs = 1_000) => {
      stopping ??= killTree(pid, { graceMs })
        .then((result) => {
          const left = describeLeft(result)
          if (left) throw new Error(`processes of language server ${pid} could not be ended: ${left}`)
        })
        .finally(() => releaseProcess(pid))
      return stopping
    },
  }
}

/** Through the launcher where there is one (it does not fork this process); on Windows npm's `.cmd` shims need a shell. */
async function startServer(launch: ServerLaunch): Promise<ServerChild> {
  if (process.platform === 'win32') {
    return spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'], shell: true, windowsHide: true })
  }
  const child = await startProcess(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
  const { stdin, stdout, stderr } = child
  if (stdin && stdout && stderr) return Object.assign(child, { stdin, stdout, stderr })
  // A start that failed without pipes (the launcher stopped meanwhile, as a host shuts down) says why on 'error'.
  throw await new Promise<Error>((resolve) => {
    child.once('error', resolve)
    child.once('spawn', () => resolve(new Error(`language server ${launch.command} was started without its pipes`)))
  })
}
