import type { AppInfo } from '@shared/ipc/app'
import { forgetInheritedPorts } from './project/command-env'
import { endOwnProcesses, installProcessMarker, ProcessSweeps } from './process/owner-marker'
import { loginShellEnv, pickShell, useProcessEnvironment } from './tools'
import type { Disposable } from './util/disposable'
import { detached } from './util/detached'

/**
 * Prepares the host process for the commands the core starts. With `ownProcesses` (the CLI, serve, the desktop
 * app; off in tests that share one process) every child is marked so that nothing it started survives it, and
 * what an earlier run killed with SIGKILL left behind is ended a moment later. Disposing ends what is left at
 * shutdown.
 */
export function prepareHostProcess(options: { transport: AppInfo['transport']; ownProcesses?: boolean; dataDir: string }): Disposable {
  const sweeps = options.ownProcesses ? ownProcesses(options.dataDir) : undefined
  forgetInheritedPorts()
  // The desktop app may start from a launcher without the user's PATH: read the login shell's
  // environment once, now, in the background. The CLI and serve run in a shell that set it up.
  if (options.transport === 'electron') detached('login shell environment', loginShellEnv(pickShell()))
  else useProcessEnvironment()
  return { dispose: () => sweeps?.dispose() }
}

function ownProcesses(dataDir: string): Disposable {
  // Set once dispose has swept our processes: the exit hook then has nothing left to do.
  let swept = false
  installProcessMarker(dataDir)
  const sweeps = new ProcessSweeps(dataDir)
  // Last resort on any exit path (a signal handler's process.exit included): synchronous, so it runs.
  process.once('exit', () => {
    if (!swept) endOwnProcesses()
  })
  return {
    dispose: () => {
      // What graceful shutdown did not reach (a grandchild that left our process group with setsid).
      sweeps.endAtShutdown()
      swept = true
    },
  }
}
