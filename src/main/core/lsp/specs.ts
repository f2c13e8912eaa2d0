import type { LspConfig, LspServerConfig } from '../config/schema'
import { BUILTIN_SERVERS, type ServerSpec } from './catalog'

/** A catalog entry with the user's settings applied. */
export interface EffectiveServer {
  spec: ServerSpec
  /** `command` from config: started as given instead of being looked up. */
  command?: string[]
  env: Record<string, string>
  /** npm version to install on demand. */
  version?: string
}

export type InstallPolicy = 'ask' | 'auto' | 'never'

/** The servers entries of `lsp` (every key but `install`). */
function serverEntries(config: Exclude<LspConfig, false>): Array<[string, LspServerConfig]> {
  return Object.entries(config).filter((entry): entry is [string, LspServerConfig] => entry[0] !== 'install' && typeof entry[1] === 'object')
}

/**
 * The servers of a project: the built-in catalog, minus disabled ones, with
 * pinned commands, extensions and options from `lsp`, plus servers the config
 * adds (those need `command` and `extensions`). `lsp: false` leaves none.
 */
export function effectiveServers(config: LspConfig | undefined): { servers: EffectiveServer[]; errors: string[] } {
  if (config === false) return { servers: [], errors: [] }
  const entries = new Map(config ? serverEntries(config) : [])
  const servers: EffectiveServer[] = []
  const added: EffectiveServer[] = []
  const errors: string[] = []
  for (const builtin of BUILTIN_SERVERS) {
    const own = entries.get(builtin.id)
    if (own?.disabled) continue
    servers.push(apply(builtin, own))
  }
  for (const [id, own] of entries) {
    if (BUILTIN_SERVERS.some((s) => s.id === id) || own.disabled) continue
    if (!own.command || !own.extensions) {
      errors.push(`lsp.${id}: a server that is not built in needs "command" and "extensions"`)
      continue
    }
    const [bin = '', ...args] = own.command
    added.push(apply({ id, name: id, extensions: own.extensions, bin, args, custom: true }, own))
  }
  // Servers the user added come first, so one that claims `.ts` wins over the built-in.
  return { servers: [...added, ...servers], errors }
}

function apply(spec: ServerSpec, own: LspServerConfig | undefined): EffectiveServer {
  if (!own) return { spec, env: {} }
  return {
    spec: {
      ...spec,
      extensions: own.extensions ?? spec.extensions,
      initializationOptions: own.initializationOptions ?? spec.initializationOptions,
    },
    ...(own.command ? { command: own.command } : {}),
    env: own.env ?? {},
    ...(own.version ? { version: own.version } : {}),
  }
}

export function installPolicy(config: LspConfig | undefined): InstallPolicy {
  return config === false || config === undefined ? 'ask' : (config.install ?? 'ask')
}

/** The server for a file, by extension; the first match wins. */
export function serverForFile(servers: EffectiveServer[], path: string): EffectiveServer | undefined {
  const lower = path.toLowerCase()
  return servers.find((s) => s.spec.extensions.some((ext) => lower.endsWith(ext.toLowerCase())))
}
