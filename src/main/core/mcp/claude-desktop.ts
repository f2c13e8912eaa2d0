import { readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import path from 'node:path'
import { type ConvertedServers, convertMcpServers } from './mcp-servers-json'

const LABEL = 'Claude Desktop config'

/**
 * Where Claude Desktop keeps `claude_desktop_config.json` on this platform, for an
 * "Import from Claude Desktop" action that does not make the user find the file.
 */
export function claudeDesktopConfigPath(
  platform: NodeJS.Platform = process.platform,
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = homedir(),
): string {
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
  if (platform === 'win32') return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json')
  return path.posix.join(env.XDG_CONFIG_HOME || path.posix.join(home, '.config'), 'Claude', 'claude_desktop_config.json')
}

/**
 * Claude Desktop's server list in our config shape (the `mcp` section of hotaru.json).
 * Pure: the caller decides where, and whether, to write it. Values are copied as
 * they are; Claude Desktop does not expand variables, so neither does the import.
 */
export function convertClaudeDesktopConfig(document: unknown): ConvertedServers {
  return convertMcpServers(document, LABEL)
}

/** Reads and converts Claude Desktop's config; a missing or invalid file is an error naming the path. */
export async function importClaudeDesktopConfig(file: string = claudeDesktopConfigPath()): Promise<ConvertedServers> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new Error(code === 'ENOENT' ? `no Claude Desktop config at ${file}` : `cannot read ${file}: ${code ?? String(error)}`, { cause: error })
  }
  let document: unknown
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error })
  }
  return convertClaudeDesktopConfig(document)
}
