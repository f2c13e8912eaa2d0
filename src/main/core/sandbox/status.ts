import type { SandboxStatus } from '@shared/ipc/sandbox'
import { globalConfigDir, resolveHomeDir } from '../config/locations'
import type { SandboxConfig } from '../config/schema'
import { sandboxPolicy, type PolicyContext, type SandboxPolicy } from './policy'
import { unixSocketFilterSupported, unixSocketsUnfiltered } from './seccomp'
import { sandboxSupport, type SandboxDependency } from './support'

/** The sandbox of a project as settings and `hotaru run` show it (the wire type of `sandbox.status`). */
export type { SandboxStatus }

export function sandboxStatus(config: SandboxConfig | undefined, ctx: PolicyContext): SandboxStatus {
  const policy = sandboxPolicy(config, ctx)
  const support = sandboxSupport(ctx.env as NodeJS.ProcessEnv | undefined)
  return {
    enabled: policy.enabled,
    autoAllow: policy.autoAllow,
    allowUnsandboxedRetry: policy.allowUnsandboxedRetry,
    platform: support.platform,
    backend: support.backend,
    available: support.available,
    ...(support.problem ? { problem: support.problem } : {}),
    ...(support.installHint ? { installHint: support.installHint } : {}),
    dependencies: support.backend === 'bubblewrap' ? [...support.dependencies, unixSocketFilterEntry(policy)] : support.dependencies,
    writable: policy.writable,
    protectedWrites: policy.protectedWrites,
    denyRead: policy.denyRead,
    network: policy.network,
  }
}

/** One line for the start of `hotaru run` (stderr). */
export function sandboxStatusLine(config: SandboxConfig | undefined, ctx: PolicyContext): string {
  if (!config?.enabled) return 'sandbox: off (set "sandbox": {"enabled": true} in hotaru.json to confine commands)'
  const status = sandboxStatus(config, ctx)
  if (!status.available) {
    const hint = status.installHint ? `; install: ${status.installHint}` : ''
    return `sandbox: on but unavailable: ${status.problem ?? 'unknown reason'}${hint}; commands will not run`
  }
  const extra = status.writable.length - 2
  const network = status.network.mode === 'none' ? 'no network' : `network: ${status.network.allowedDomains.length} allowed domain(s) via proxy`
  const parts = [
    `sandbox: on (${status.backend})`,
    `writes: project + temp${extra > 0 ? ` + ${extra} more` : ''}`,
    `${status.denyRead.length} denied paths`,
    network,
    ...(status.backend === 'bubblewrap' && !unixSocketsRefused(config) ? [config.allowUnixSockets ? 'unix sockets allowed' : unixSocketsUnfiltered()] : []),
    ...(status.autoAllow ? ['autoAllow'] : []),
  ]
  return parts.join(' · ')
}

/** The facts a policy needs, from the app's data dir and an environment (HOME, XDG_CONFIG_HOME…). */
export function sandboxContext(input: { projectRoot: string; dataDir: string; env?: NodeJS.ProcessEnv; homeDir?: string }): PolicyContext {
  const env = input.env ?? process.env
  const homeDir = input.homeDir ?? resolveHomeDir(env, process.platform)
  return { projectRoot: input.projectRoot, homeDir, dataDir: input.dataDir, configDir: globalConfigDir({ env, homeDir, platform: process.platform }), env }
}

function unixSocketsRefused(config: SandboxConfig | undefined): boolean {
  return config?.allowUnixSockets !== true && unixSocketFilterSupported()
}

/** The seccomp filter as settings lists it beside bubblewrap. */
function unixSocketFilterEntry(policy: SandboxPolicy): SandboxDependency {
  if (policy.allowUnixSockets === true) return { name: 'seccomp filter', found: true, note: 'off: unix sockets allowed by your settings' }
  if (!unixSocketFilterSupported()) {
    const outcome = policy.allowUnixSockets === false ? 'commands do not run (your settings refuse unix sockets)' : 'commands may open unix sockets'
    return { name: 'seccomp filter', found: false, note: `${unixSocketsUnfiltered()}; ${outcome}` }
  }
  return { name: 'seccomp filter', found: true, note: 'refuses unix sockets (EPERM)' }
}
