import { execFileSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

export interface SandboxDependency {
  name: string
  found: boolean
  path?: string
  /** What it is needed for, or why it does not work. */
  note?: string
}

/** Whether commands can be sandboxed on this machine, and what was found. */
export interface SandboxSupport {
  platform: NodeJS.Platform
  backend: 'bubblewrap' | 'seatbelt' | 'none'
  available: boolean
  dependencies: SandboxDependency[]
  /** Why it is not available, in one sentence. */
  problem?: string
  /** The command that installs what is missing. */
  installHint?: string
  /** The program that relays the network proxy inside a Linux sandbox; absent: only `network: "none"` works. */
  forwarder?: { command: string; env: Record<string, string> }
}

export const BWRAP_INSTALL_HINT = 'sudo apt-get install -y bubblewrap (Debian/Ubuntu), sudo dnf install bubblewrap (Fedora), sudo pacman -S bubblewrap (Arch)'

/** The first executable `name` on PATH. */
export function which(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch (error) {
      // Not in this folder (or not executable): keep looking.
      if ((error as NodeJS.ErrnoException).code === undefined) throw error
    }
  }
  return undefined
}

function firstLine(error: unknown): string {
  const stderr = (error as { stderr?: Buffer | string }).stderr
  const text = stderr ? stderr.toString() : (error as Error).message
  return text.trim().split('\n')[0] ?? 'failed'
}

/** A Node that can run the in-sandbox relay: this one, unless this is Electron (whose packaged build cannot run as Node). */
function nodeForwarder(env: NodeJS.ProcessEnv): SandboxSupport['forwarder'] {
  if (!process.versions.electron) return { command: process.execPath, env: {} }
  const node = which('node', env.PATH)
  return node ? { command: node, env: {} } : undefined
}

/** Where bubblewrap is looked for besides PATH (a desktop launcher's PATH may be short). */
const BWRAP_DIRS = ['/usr/bin', '/usr/local/bin']

function linuxSupport(env: NodeJS.ProcessEnv, extraDirs: readonly string[]): SandboxSupport {
  const bwrap = which('bwrap', [env.PATH ?? '', ...extraDirs].join(delimiter))
  if (!bwrap) {
    return {
      platform: 'linux',
      backend: 'bubblewrap',
      available: false,
      dependencies: [{ name: 'bubblewrap', found: false, note: 'runs each command in its own namespaces' }],
      problem: 'bubblewrap (bwrap) is not installed',
      installHint: BWRAP_INSTALL_HINT,
    }
  }
  const forwarder = nodeForwarder(env)
  const dependencies: SandboxDependency[] = [
    { name: 'bubblewrap', found: true, path: bwrap },
    forwarder
      ? { name: 'node', found: true, path: forwarder.command, note: 'lets sandboxed commands reach the allowed sites' }
      : { name: 'node', found: false, note: 'needed only to reach allowed sites; without it sandboxed commands have no network' },
  ]
  try {
    // One real start: user namespaces may be switched off (sysctl, AppArmor) even where bwrap is installed.
    execFileSync(bwrap, ['--ro-bind', '/', '/', '--unshare-user', '--unshare-pid', '--unshare-net', '--proc', '/proc', '--dev', '/dev', 'true'], {
      timeout: 10_000,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
  } catch (error) {
    return {
      platform: 'linux',
      backend: 'bubblewrap',
      available: false,
      dependencies,
      problem: `bubblewrap cannot create a sandbox here: ${firstLine(error)} (unprivileged user namespaces may be disabled: sysctl kernel.unprivileged_userns_clone=1, or the AppArmor restriction kernel.apparmor_restrict_unprivileged_userns=0)`,
    }
  }
  return { platform: 'linux', backend: 'bubblewrap', available: true, dependencies, ...(forwarder ? { forwarder } : {}) }
}

function macSupport(): SandboxSupport {
  const exec = '/usr/bin/sandbox-exec'
  let found = true
  try {
    accessSync(exec, constants.X_OK)
  } catch (error) {
    found = (error as NodeJS.ErrnoException).code === undefined
  }
  return {
    platform: 'darwin',
    backend: 'seatbelt',
    available: found,
    dependencies: [{ name: 'sandbox-exec', found, path: exec, note: 'part of macOS (Seatbelt)' }],
    ...(found ? {} : { problem: '/usr/bin/sandbox-exec is missing from this macOS installation' }),
  }
}

/** What a platform offers, probed now. `bwrapDirs`: where to look for bubblewrap besides PATH. */
export function detectSandboxSupport(options: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv; bwrapDirs?: readonly string[] }): SandboxSupport {
  if (options.platform === 'linux') return linuxSupport(options.env, options.bwrapDirs ?? BWRAP_DIRS)
  if (options.platform === 'darwin') return macSupport()
  const name = options.platform === 'win32' ? 'Windows' : options.platform
  return {
    platform: options.platform,
    backend: 'none',
    available: false,
    dependencies: [],
    problem: `the OS sandbox is not available on ${name}: switch the sandbox off to run commands there without it`,
  }
}

let cached: SandboxSupport | undefined

/** What this machine offers; probed once per process (a bubblewrap start costs a few milliseconds). */
export function sandboxSupport(env: NodeJS.ProcessEnv = process.env): SandboxSupport {
  cached ??= detectSandboxSupport({ platform: process.platform, env })
  return cached
}
