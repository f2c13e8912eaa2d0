import type { WithheldItem } from '@shared/ipc/trust'
import { formatJsonPath } from './config-error'
import { isPlainObject, setOwn } from './merge'
import type { ConfigLayer } from './schema'

/** What a restricted (untrusted) folder would have run or changed, for the trust prompt and the CLI. */
export type { WithheldItem }

export type WithheldKind = WithheldItem['kind']

type Policy = 'keep' | 'withhold' | 'narrow'

/**
 * How each top-level key of a project layer is treated while its folder is not
 * trusted. Typed over every key of the layer schema, so a new config key does not
 * compile until someone decides whether an untrusted repository may set it.
 * - keep: harmless data (model names, texts, limits, exclusions);
 * - narrow: only what makes things stricter applies (`ask`/`deny` rules, tools switched off);
 * - withhold: anything that runs a program or sends data somewhere.
 */
export const RESTRICTED_LAYER_POLICY = {
  $schema: 'keep',
  model: 'keep',
  smallModel: 'keep',
  effort: 'keep',
  provider: 'withhold',
  agent: 'narrow',
  defaultAgent: 'keep',
  permission: 'narrow',
  mcp: 'narrow',
  hooks: 'withhold',
  instructions: 'keep',
  snapshot: 'keep',
  compaction: 'keep',
  memory: 'keep',
  shell: 'withhold',
  maxTurns: 'keep',
  stallTimeoutMs: 'keep',
  // Layered so that a project can only tighten it (sandbox-layers.ts).
  sandbox: 'keep',
  // A configured server is a command line the folder would run.
  lsp: 'withhold',
  // Places folders outside the project and may start its MCP servers in them.
  worktree: 'withhold',
  // Names a browser program to run.
  preview: 'withhold',
} as const satisfies Record<keyof ConfigLayer, Policy>

export interface RestrictedLayer {
  /** The layer with only what may apply before trust. */
  document: unknown
  withheld: WithheldItem[]
}

/**
 * A project layer of a folder that is not trusted. Runs on the parsed document before
 * validation and before any `{env:…}`/`{file:…}` is expanded: placeholders in what is
 * kept stay literal text (and are listed), so nothing from the user's environment or
 * files reaches a value an untrusted repository chose.
 */
export function restrictLayer(document: unknown, file: string): RestrictedLayer {
  const withheld: WithheldItem[] = []
  if (!isPlainObject(document)) return { document, withheld }
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(document)) {
    const policy = (RESTRICTED_LAYER_POLICY as Record<string, Policy | undefined>)[key]
    // Unknown keys are kept so that validation reports them with the file.
    if (policy === undefined || policy === 'keep') setOwn(out, key, value)
    else if (policy === 'withhold') withheld.push(...describeWithheld(key, value, file))
    else {
      const narrowed = narrow(key, value, file, withheld)
      if (narrowed !== undefined) setOwn(out, key, narrowed)
    }
  }
  for (const found of placeholdersIn(out, [])) {
    withheld.push({ kind: 'placeholder', file, detail: `${found.path}: ${found.text} (not expanded until the folder is trusted)` })
  }
  return { document: out, withheld }
}

function narrow(key: string, value: unknown, file: string, withheld: WithheldItem[]): unknown {
  if (key === 'permission') return narrowPermission(value, 'permission', file, withheld)
  if (key === 'mcp') return narrowMcp(value, file, withheld)
  if (key === 'agent') return narrowAgents(value, file, withheld)
  return undefined
}

/** Keeps `ask` and `deny` rules; an `allow` from an untrusted folder never applies. */
function narrowPermission(value: unknown, prefix: string, file: string, withheld: WithheldItem[]): unknown {
  if (!isPlainObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const [permission, rule] of Object.entries(value)) {
    if (rule === 'allow') {
      withheld.push({ kind: 'permission', file, detail: `${prefix}.${permission}: allow` })
      continue
    }
    if (!isPlainObject(rule)) {
      setOwn(out, permission, rule)
      continue
    }
    const kept: Record<string, unknown> = {}
    for (const [pattern, action] of Object.entries(rule)) {
      if (action === 'allow') withheld.push({ kind: 'permission', file, detail: `${prefix}.${permission} ${JSON.stringify(pattern)}: allow` })
      else setOwn(kept, pattern, action)
    }
    if (Object.keys(kept).length > 0) setOwn(out, permission, kept)
  }
  return out
}

/** Keeps `{ "enabled": false }` toggles (switching a server off); every server definition is withheld. */
function narrowMcp(value: unknown, file: string, withheld: WithheldItem[]): unknown {
  if (!isPlainObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const [name, server] of Object.entries(value)) {
    if (isPlainObject(server) && !('type' in server) && server.enabled === false && Object.keys(server).length === 1) {
      setOwn(out, name, server)
      continue
    }
    withheld.push({ kind: 'mcp', file, detail: describeMcpServer(name, server) })
  }
  return out
}

/** Agents keep their prompt, model and limits; `allow` rules and tools switched on are withheld. */
function narrowAgents(value: unknown, file: string, withheld: WithheldItem[]): unknown {
  if (!isPlainObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const [name, agent] of Object.entries(value)) {
    if (!isPlainObject(agent)) {
      setOwn(out, name, agent)
      continue
    }
    const kept: Record<string, unknown> = {}
    for (const [key, field] of Object.entries(agent)) {
      if (key === 'permission') setOwn(kept, key, narrowPermission(field, `agent.${name}.permission`, file, withheld))
      else if (key === 'tools') setOwn(kept, key, narrowTools(field, `agent.${name}.tools`, file, withheld))
      else setOwn(kept, key, field)
    }
    setOwn(out, name, kept)
  }
  return out
}

/** Tools switched off stay off; switching one on is a widening. */
export function narrowTools(value: unknown, prefix: string, file: string, withheld: WithheldItem[]): unknown {
  if (!isPlainObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const [tool, on] of Object.entries(value)) {
    if (on === false) setOwn(out, tool, on)
    else withheld.push({ kind: 'agent', file, detail: `${prefix}.${tool}: ${String(on)}` })
  }
  return out
}

function describeWithheld(key: string, value: unknown, file: string): WithheldItem[] {
  if (key === 'hooks') return describeHooks(value, file)
  if (key === 'provider') return describeProviders(value, file)
  if (key === 'shell') return [{ kind: 'shell', file, detail: `shell: ${String(value)}` }]
  if (key === 'preview') return [{ kind: 'shell', file, detail: `preview: ${JSON.stringify(value)}` }]
  return [{ kind: 'provider', file, detail: key }]
}

function describeHooks(value: unknown, file: string): WithheldItem[] {
  if (!isPlainObject(value)) return [{ kind: 'hook', file, detail: 'hooks' }]
  const items: WithheldItem[] = []
  for (const [event, matchers] of Object.entries(value)) {
    for (const matcher of Array.isArray(matchers) ? matchers : [matchers]) {
      const on = isPlainObject(matcher) && typeof matcher.matcher === 'string' ? ` (${matcher.matcher})` : ''
      const hooks = isPlainObject(matcher) && Array.isArray(matcher.hooks) ? matcher.hooks : []
      for (const hook of hooks) {
        const command = isPlainObject(hook) ? String(hook.command) : String(hook)
        items.push({ kind: 'hook', file, detail: `${event}${on}: ${command}` })
      }
      if (hooks.length === 0) items.push({ kind: 'hook', file, detail: `${event}${on}` })
    }
  }
  return items
}

function describeProviders(value: unknown, file: string): WithheldItem[] {
  if (!isPlainObject(value)) return [{ kind: 'provider', file, detail: 'provider' }]
  return Object.entries(value).map(([id, entry]) => {
    const fields = isPlainObject(entry)
      ? Object.entries(entry).map(([field, v]) => {
          if (field === 'baseURL') return `baseURL ${String(v)}`
          if (field === 'headers' && isPlainObject(v)) return `headers ${Object.entries(v).map(([h, t]) => `${h}: ${String(t)}`).join(', ')}`
          // A key's value is never printed, not even to show it was withheld.
          if (field === 'apiKey') return 'apiKey'
          return field
        })
      : []
    return { kind: 'provider' as const, file, detail: `provider.${id}: ${fields.join('; ') || '(empty)'}` }
  })
}

/** `name: npx -y server --flag` for local servers, `name: https://…` for remote ones. */
export function describeMcpServer(name: string, server: unknown): string {
  if (!isPlainObject(server)) return `${name}`
  if (server.type === 'remote' || typeof server.url === 'string') return `${name}: ${String(server.url)}`
  const command = Array.isArray(server.command) ? server.command.map(String) : server.command !== undefined ? [String(server.command)] : []
  const args = Array.isArray(server.args) ? server.args.map(String) : []
  const line = [...command, ...args].join(' ')
  return line ? `${name}: ${line}` : `${name}: ${JSON.stringify(server)}`
}

const PLACEHOLDER = /\{(?:env|file):[^}]*\}/g

function placeholdersIn(value: unknown, path: PropertyKey[]): Array<{ path: string; text: string }> {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((m) => ({ path: formatJsonPath(path), text: m[0] }))
  if (Array.isArray(value)) return value.flatMap((item, i) => placeholdersIn(item, [...path, i]))
  if (isPlainObject(value)) return Object.entries(value).flatMap(([k, v]) => placeholdersIn(v, [...path, k]))
  return []
}

/**
 * An agent file of an untrusted folder: `allow` rules and tools switched on are
 * removed (and listed); `ask`/`deny` and tools switched off stay. Mutates `override`.
 */
export function restrictAgentOverride(
  override: { permission?: Record<string, unknown>; tools?: Record<string, boolean> },
  label: string,
  file: string,
  withheld: WithheldItem[],
): void {
  if (override.tools) override.tools = narrowTools(override.tools, `${label}: tools`, file, withheld) as Record<string, boolean>
  if (!override.permission) return
  const kept: Record<string, unknown> = {}
  for (const [permission, rule] of Object.entries(override.permission)) {
    if (rule === 'allow') {
      withheld.push({ kind: 'agent', file, detail: `${label}: permission.${permission}: allow` })
      continue
    }
    if (typeof rule !== 'object' || rule === null) {
      kept[permission] = rule
      continue
    }
    const patterns = Object.entries(rule as Record<string, string>).filter(([pattern, action]) => {
      if (action !== 'allow') return true
      withheld.push({ kind: 'agent', file, detail: `${label}: permission.${permission} ${JSON.stringify(pattern)}: allow` })
      return false
    })
    if (patterns.length > 0) kept[permission] = Object.fromEntries(patterns)
  }
  override.permission = kept
}
