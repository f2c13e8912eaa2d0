import type { ConfigSourceKind } from './load'
import { mergeConfig } from './merge'
import type { SandboxConfig, SandboxNetworkConfig } from './schema'

/** Layers that may loosen the sandbox: the user's own config, the launch environment, the administrator's. */
const LOOSENING_KINDS: ReadonlySet<ConfigSourceKind> = new Set(['global', 'env', 'managed'])

export interface SandboxLayer {
  kind: ConfigSourceKind
  sandbox: SandboxConfig
}

/**
 * The effective `sandbox` setting. A project's own files are written by whoever wrote
 * the project (and by the commands the sandbox confines), so they may only tighten it:
 * switch it on, switch `autoAllow` / `allowUnsandboxedRetry` / `allowUnixSockets` off, add `denyRead` paths,
 * narrow the network. Anything looser from a project layer is ignored.
 */
export function layeredSandbox(layers: readonly SandboxLayer[]): SandboxConfig | undefined {
  if (layers.length === 0) return undefined
  let trusted: SandboxConfig = {}
  for (const layer of layers) {
    if (LOOSENING_KINDS.has(layer.kind)) trusted = mergeConfig(trusted, layer.sandbox) as SandboxConfig
  }
  let result: SandboxConfig = { ...trusted }
  for (const layer of layers) {
    if (!LOOSENING_KINDS.has(layer.kind)) result = tighten(result, layer.sandbox)
  }
  return result
}

function tighten(base: SandboxConfig, project: SandboxConfig): SandboxConfig {
  const out: SandboxConfig = { ...base }
  if (project.enabled === true) out.enabled = true
  if (project.autoAllow === false) out.autoAllow = false
  if (project.allowUnsandboxedRetry === false) out.allowUnsandboxedRetry = false
  if (project.allowUnixSockets === false) out.allowUnixSockets = false
  if (project.denyRead) out.denyRead = [...new Set([...(base.denyRead ?? []), ...project.denyRead])]
  if (project.network !== undefined) out.network = narrowNetwork(base.network, project.network)
  return out
}

function narrowNetwork(base: SandboxNetworkConfig | undefined, project: SandboxNetworkConfig): SandboxNetworkConfig {
  if (base === undefined || base === 'none' || project === 'none') return 'none'
  const allowed = new Set(base.allowedDomains)
  return { allowedDomains: project.allowedDomains.filter((d) => allowed.has(d)) }
}
