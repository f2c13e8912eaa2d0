import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'jsonc-parser'
import { DOT_HOTARU_DIR } from '../config/locations'
import { configFileIn, userConfigFile, writeConfigValue } from '../config/writer'

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
