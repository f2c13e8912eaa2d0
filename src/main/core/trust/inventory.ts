import { readFile, readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { HotaruError } from '@shared/errors'
import { DOT_HOTARU_DIR, describeMcpServer, type WithheldItem } from '../config'
import { parseJsonc } from '../config/jsonc'
import { restrictAgentOverride } from '../config/restricted-layer'
import { parseAgentFile } from '../extensions/agent-files'
import { convertMcpServers } from '../mcp/mcp-servers-json'
import { PROJECT_MCP_JSON } from '../mcp/project-mcp-json'
import { LAUNCH_FILE, readLaunchFile } from '../preview/launch-config'

const TOOL_FILE = /\.(?:ts|js|mjs)$/

/**
 * What the folder's own files (outside hotaru.json) would run or widen: each server of
 * `.mcp.json` with its command line, each custom tool file, and each `allow` rule or
 * tool switched on by an agent file. Read without running or importing anything and
 * without expanding placeholders.
 */
export async function folderInventory(projectRoot: string): Promise<WithheldItem[]> {
  const [mcp, tools, agents] = await Promise.all([mcpServers(projectRoot), toolFiles(projectRoot), agentFileWidenings(projectRoot)])
  return [...mcp, ...tools, ...agents, ...launchCommands(projectRoot)]
}

/** The dev-server commands of `.hotaru/launch.json`: the preview runs them only once the folder is trusted. */
function launchCommands(projectRoot: string): WithheldItem[] {
  const file = join(projectRoot, LAUNCH_FILE)
  try {
    const configurations = readLaunchFile(projectRoot) ?? []
    return configurations.flatMap((c) => (c.command === undefined ? [] : [{ kind: 'shell' as const, file, detail: `preview "${c.name}": ${c.command}` }]))
  } catch (error) {
    // A broken file starts nothing either; say it is there.
    if (error instanceof HotaruError) return [{ kind: 'shell', file, detail: `${LAUNCH_FILE} (unreadable: ${error.message})` }]
    throw error
  }
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    throw error
  }
}

async function listOptional(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return []
    throw error
  }
}

async function mcpServers(projectRoot: string): Promise<WithheldItem[]> {
  const file = join(projectRoot, PROJECT_MCP_JSON)
  const text = await readOptional(file)
  if (text === undefined) return []
  let document: unknown
  try {
    document = parseJsonc(text.replace(/^\uFEFF/, ''), { path: file, display: file }, [])
  } catch (error) {
    // A broken file starts nothing either; say it is there.
    if (error instanceof HotaruError) return [{ kind: 'mcp', file, detail: `${PROJECT_MCP_JSON} (unreadable: ${error.message})` }]
    throw error
  }
  const { servers } = convertMcpServers(document, file)
  return Object.entries(servers).map(([name, server]) => ({ kind: 'mcp' as const, file, detail: describeMcpServer(name, server) }))
}

async function toolFiles(projectRoot: string): Promise<WithheldItem[]> {
  const dir = join(projectRoot, DOT_HOTARU_DIR, 'tools')
  return (await listOptional(dir))
    .filter((name) => TOOL_FILE.test(name) && !name.endsWith('.d.ts'))
    .map((name) => ({ kind: 'tool' as const, file: join(dir, name), detail: `custom tool ${join(DOT_HOTARU_DIR, 'tools', name)}` }))
}

async function agentFileWidenings(projectRoot: string): Promise<WithheldItem[]> {
  const dir = join(projectRoot, DOT_HOTARU_DIR, 'agents')
  const items: WithheldItem[] = []
  for (const name of (await listOptional(dir)).filter((n) => n.endsWith('.md'))) {
    const file = join(dir, name)
    const text = await readOptional(file)
    if (text === undefined) continue
    let parsed
    try {
      parsed = parseAgentFile(basename(name, '.md'), text)
    } catch {
      // A broken agent file is reported by the agent loader; it widens nothing.
      continue
    }
    restrictAgentOverride(parsed.override, `agent file ${name}`, file, items)
  }
  return items
}
