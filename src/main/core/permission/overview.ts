import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'jsonc-parser'
import type { PermissionLayer, RuleInEffect } from '@shared/schema/permission-rules'
import { loadConfig, type ConfigSource } from '../config'
import { DOT_HOTARU_DIR } from '../config/locations'
import { configFileIn, userConfigFile, writeConfigValue } from '../config/writer'
import { rulesFromConfig } from './config-rules'
import { agentDefaultRules } from './defaults'
import type { PermissionConfig } from '../config/schema'

const LAYER_OF: Record<ConfigSource['kind'], PermissionLayer> = {
  global: 'user',
  project: 'project',
  'dot-hotaru': 'project',
  env: 'env',
  managed: 'managed',
}

function permissionOf(source: ConfigSource, env: NodeJS.ProcessEnv): PermissionConfig | undefined {
  const text = source.kind === 'env' ? (env.HOTARU_CONFIG_CONTENT ?? '') : readFileSync(source.file, 'utf8')
  const value = parse(text, [], { allowTrailingComma: true }) as { permission?: PermissionConfig } | undefined
  return value?.permission
}

/**
 * The permission rules in effect for an agent in a project, lowest precedence
 * first (the last matching rule wins), each with the layer it came from: the
 * agent's built-in defaults, then every config file the loader applied. In a
 * folder that is not trusted its own `allow` rules do not apply: they are marked `untrusted`.
 */
export async function rulesInEffect(projectDir: string, agent: string, env: NodeJS.ProcessEnv, trusted: boolean): Promise<RuleInEffect[]> {
  const { sources } = await loadConfig({ projectDir, env, trusted })
  const rules: RuleInEffect[] = agentDefaultRules(agent).map((r) => ({ ...r, layer: 'agent' }))
  for (const source of sources) {
    const layer = LAYER_OF[source.kind]
    for (const rule of rulesFromConfig(permissionOf(source, env))) {
      const untrusted = layer === 'project' && !trusted && rule.action === 'allow'
      rules.push({ ...rule, layer, file: source.file, ...(untrusted ? { untrusted: true } : {}) })
    }
  }
  return rules
}

/** The config file a layer's rules are written to: the user's global config or the project's `.hotaru` one. */
export function ruleFile(layer: 'user' | 'project', projectDir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (layer === 'project') return configFileIn(join(projectDir, DOT_HOTARU_DIR))
  return userConfigFile(env)
}

/**
 * Adds, changes or (action null) removes one rule in a layer's file, comments
 * kept. A tool set to a single action (`"bash": "ask"`) becomes a pattern map
 * with that action as its `*` rule first.
 */
export function setRule(file: string, permission: string, pattern: string, action: 'allow' | 'ask' | 'deny' | null): void {
  let current: unknown
  try {
    current = (parse(readFileSync(file, 'utf8'), [], { allowTrailingComma: true }) as { permission?: Record<string, unknown> } | undefined)?.permission?.[permission]
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    current = undefined
  }
  if (typeof current === 'string') {
    const map: Record<string, string> = pattern === '*' ? {} : { '*': current }
    if (action) map[pattern] = action
    writeConfigValue(file, ['permission', permission], Object.keys(map).length > 0 ? map : undefined)
    return
  }
  const existing = current && typeof current === 'object' ? (current as Record<string, unknown>) : {}
  const left = Object.keys(existing).filter((k) => k !== pattern)
  if (!action && left.length === 0) {
    writeConfigValue(file, ['permission', permission], undefined)
    return
  }
  writeConfigValue(file, ['permission', permission, pattern], action ?? undefined)
}
