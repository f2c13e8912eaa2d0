import { spawn } from 'node:child_process'
import type { SandboxLaunch } from '../../sandbox/sandbox'
import type { StartedProcess } from '../../process/spawn'

/**
 * Starts a command inside the OS sandbox. Its launch hands fds and an IPC channel to the child
 * (the seccomp program, the sandbox's control channel), which only Node's own spawn can do, so it
 * never goes through a process launcher. The command leads its own process group (not on Windows).
 */
export function spawnSandboxed(launch: Pick<SandboxLaunch, 'command' | 'args' | 'env' | 'stdio' | 'started'>, cwd: string): StartedProcess {
  const child = spawn(launch.command, launch.args, {
    cwd,
    env: launch.env,
    detached: process.platform !== 'win32',
    stdio: ['ignore', 'pipe', 'pipe', ...launch.stdio],
  })
  launch.started(child)
  return child
}
