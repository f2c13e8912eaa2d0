import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { HotaruError } from '@shared/errors'
import { parseJsonc } from '../config/jsonc'
import { type ConvertedServers, convertMcpServers } from './mcp-servers-json'

/** The project-level server list other agents use, at the project root. */
export const PROJECT_MCP_JSON = '.mcp.json'

type Env = Readonly<Record<string, string | undefined>>

/**
 * Servers from `<project>/.mcp.json`. Placeholders work as in other agents' files
 * (`${VAR}`, `${VAR:-default}`) and as in hotaru.json (`{env:VAR}`). A missing file
 * means no servers; an unreadable or invalid one is a warning, never a crash.
 */
export async function readProjectMcpJson(projectRoot: string, env: Env): Promise<ConvertedServers & { file: string }> {
  const file = join(projectRoot, PROJECT_MCP_JSON)
  let text: string
  try {
    text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { file, servers: {}, warnings: [] }
    return { file, servers: {}, warnings: [`${file}: cannot read the file (${code ?? String(error)})`] }
  }
  const warnings: string[] = []
  let document: unknown
  try {
    document = parseJsonc(text, { path: file, display: file }, warnings)
  } catch (error) {
    if (error instanceof HotaruError) return { file, servers: {}, warnings: [...warnings, error.message] }
    throw error
  }
  const converted = convertMcpServers(expandEnv(document, env, file, warnings), file)
  return { file, servers: converted.servers, warnings: [...warnings, ...converted.warnings] }
}

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\{env:([^}]*)\}/g

/** Replaces placeholders in every string value (keys are left alone). */
export function expandEnv(value: unknown, env: Env, file: string, warnings: string[]): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (_whole, dollarName: string | undefined, fallback: string | undefined, envName: string | undefined) => {
      const name = (dollarName ?? envName ?? '').trim()
      const found = env[name]
      if (found !== undefined && found !== '') return found
      if (fallback !== undefined) return fallback
      if (found === undefined) warnings.push(`${file}: environment variable ${name} is not set; using an empty string`)
      return ''
    })
  }
  if (Array.isArray(value)) return value.map((item) => expandEnv(item, env, file, warnings))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandEnv(item, env, file, warnings)]))
  }
  return value
}
