import { existsSync } from 'node:fs'
import { basename } from 'node:path'
import { userInfo } from 'node:os'
import { APP_NAME, APP_VERSION } from '../app/meta'

export interface ShellSpec {
  file: string
  args: string[]
}

/**
 * The user's login shell: `$SHELL`, else the account's shell, else bash/sh.
 * Started as a login shell (`-l`) so its profile sets PATH and the rest of the
 * environment the way the user's own terminal does — a desktop app launched
 * from a dock or launcher does not inherit that environment.
 */
export function userShell(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): ShellSpec {
  if (platform === 'win32') return { file: env.COMSPEC || 'powershell.exe', args: [] }
  let file = env.SHELL
  if (!file) {
    try {
      file = userInfo().shell ?? undefined
    } catch (error) {
      console.warn('[pty] cannot read the account shell:', (error as Error).message)
    }
  }
  if (!file) file = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh'
  return { file, args: ['-l'] }
}

/** The environment terminals start with: the user's, minus variables meant for our own runtime. */
export function terminalEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined) continue
    // Electron's switches would make node/electron in the terminal behave unlike the user's own shell.
    if (key.startsWith('ELECTRON_') || key === 'NODE_OPTIONS' || key === 'NODE_CHANNEL_FD') continue
    env[key] = value
  }
  env.TERM = 'xterm-256color'
  env.COLORTERM = 'truecolor'
  env.TERM_PROGRAM = APP_NAME
  env.TERM_PROGRAM_VERSION = APP_VERSION
  return env
}

export function shellName(spec: ShellSpec): string {
  return basename(spec.file).replace(/\.exe$/i, '')
}
