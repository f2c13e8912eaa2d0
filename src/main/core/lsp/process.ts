import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { guardProcess, releaseProcess } from '../mcp/exit-guard'
import { describeLeft, killTree } from '../process/tree'

/** How a language server process is started. */
export interface ServerLaunch {
  command: string
  args: string[]
  cwd: string
  env: Record<string, string>
}

/** A started server process; `stop()` ends its whole tree. */
export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams
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
export function spawnServerProcess(launch: ServerLaunch): Promise<ServerProcess> {
  const windows = process.platform === 'win32'
  const child = spawn(launch.command, launch.args, {
    cwd: launch.cwd,
    env: launch.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: !windows,
    // npm's `.cmd` shims need a shell on Windows.
    shell: windows,
    windowsHide: true,
  })
  return new Promise((resolve, reject) => {
    // Before 'spawn' an error means it could not start; later ones (a broken pipe) end in 'exit', which the client reports.
    child.on('error', (error) => {
      if (child.pid === undefined) reject(error)
    })
    child.once('spawn', () => {
      const pid = child.pid as number
      guardProcess(pid)
      let stopping: Promise<void> | undefined
      resolve({
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
      })
    })
  })
}
