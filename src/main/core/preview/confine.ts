import { readlinkSync } from 'node:fs'
import type { CommandSandbox } from '../sandbox/sandbox'
import { terminalEnv, type ShellSpec } from '../pty/shell'
import type { Confined } from './service'

/**
 * Wraps a launch command in the OS sandbox for a terminal: the dev server keeps the machine's network
 * (its ports must answer the browser) and the sandbox's file rules. A pty passes no extra file
 * descriptors, so the seccomp program the launch hands over as fd 3 is opened again by a shell
 * that then becomes bubblewrap (`exec 3<file; exec bwrap …`).
 */
export async function confineForTerminal(sandbox: CommandSandbox, command: ShellSpec, cwd: string, env: Record<string, string>): Promise<Confined> {
  const launch = await sandbox.wrap([command.file, ...command.args], { cwd, env: { ...terminalEnv(), ...env }, shareNetwork: true })
  try {
    if (launch.stdio.includes('ipc')) throw new Error('a sandboxed preview cannot take an IPC channel')
    const fds = launch.stdio.filter((entry): entry is number => typeof entry === 'number')
    if (fds.length > 1) throw new Error(`a sandboxed preview can pass one file to its command, not ${fds.length}`)
    const filter = fds[0] === undefined ? undefined : readlinkSync(`/proc/self/fd/${fds[0]}`)
    const spec: ShellSpec = filter ? { file: '/bin/sh', args: ['-c', 'exec 3<"$0" && exec "$@"', filter, launch.command, ...launch.args] } : { file: launch.command, args: launch.args }
    const clean: Record<string, string> = {}
    for (const [key, value] of Object.entries(launch.env)) if (value !== undefined) clean[key] = value
    return { command: spec, env: clean, dispose: () => launch.dispose() }
  } catch (error) {
    await launch.dispose()
    throw error
  }
}
