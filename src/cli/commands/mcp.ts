import { realpath, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { HotaruError } from '@shared/errors'
import { ProjectConfig, restrictedSummary } from '../../main/core/config/project-config'
import { McpManager, type McpServerStatus, type McpTool } from '../../main/core/mcp'
import { parseCommandArgs, stringOption } from '../args'
import { withTrust } from '../context'
import { CliError } from '../errors'

const USAGE = `Usage:
  hotaru mcp list [--dir PATH] [--json]   Start the project's MCP servers, then show each one's state and tools

Servers come from the "mcp" section of hotaru.json and from the project's .mcp.json.
A folder that is not trusted (see hotaru trust) starts none of its own servers.`

export async function runMcp(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv
  if (verb === undefined || verb === '--help' || verb === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return verb === undefined ? 2 : 0
  }
  if (verb === 'list') return list(rest)
  throw new CliError(`unknown mcp command "${verb}"\n\n${USAGE}`)
}

/** One server in `--json` output. */
export interface McpListEntry {
  name: string
  type: McpServerStatus['type']
  source: McpServerStatus['source']
  state: McpServerStatus['state']
  transport?: McpServerStatus['transport']
  error?: string
  needsAuth?: boolean
  /** The tools as the agent names them (`server__tool`). */
  tools: string[]
}

async function list(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { dir: { type: 'string' }, json: { type: 'boolean' } }, USAGE)
  const dir = await projectDir(stringOption(values, 'dir') ?? process.cwd())
  let loaded
  try {
    // The trust decision is all this command needs from the app's data.
    loaded = await withTrust((trust) => new ProjectConfig(dir, { trust, env: process.env }).load())
  } catch (error) {
    if (error instanceof HotaruError) throw new CliError(error.message, 1)
    throw error
  }
  for (const warning of loaded.warnings) process.stderr.write(`warning: ${warning}\n`)
  if (loaded.withheld.length > 0) process.stderr.write(`${restrictedSummary(loaded.withheld, dir)}\n`)

  const manager = new McpManager({
    servers: loaded.config.mcp,
    projectRoot: dir,
    projectMcpJson: loaded.trust.trusted,
    env: process.env,
    onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
  })
  let onSignal = (): void => undefined
  const interrupted = new Promise<'interrupted'>((resolveSignal) => {
    onSignal = () => resolveSignal('interrupted')
  })
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const outcome = await Promise.race([manager.start().then(() => 'settled' as const), interrupted])
    if (outcome === 'interrupted') {
      process.stderr.write('hotaru mcp: stopped\n')
      return 130
    }
    const entries = listEntries(manager.statuses(), manager.listTools())
    if (values.json) process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`)
    else process.stdout.write(renderTable(entries, dir))
    return 0
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    // Ends every server process this command started, whatever happened above.
    await manager.dispose()
  }
}

async function projectDir(input: string): Promise<string> {
  const dir = resolve(input)
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(error.code === 'ENOENT' ? `no folder at ${dir}` : `cannot open ${dir}: ${error.code ?? error.message}`, 1)
  })
  if (!info.isDirectory()) throw new CliError(`${dir} is not a folder`, 1)
  return realpath(dir)
}

export function listEntries(statuses: McpServerStatus[], tools: McpTool[]): McpListEntry[] {
  return statuses.map((status) => ({
    name: status.name,
    type: status.type,
    source: status.source,
    state: status.state,
    ...(status.transport ? { transport: status.transport } : {}),
    ...(status.error !== undefined ? { error: status.error } : {}),
    ...(status.needsAuth ? { needsAuth: true } : {}),
    tools: tools.filter((tool) => tool.server === status.name).map((tool) => tool.name),
  }))
}

function renderTable(entries: McpListEntry[], dir: string): string {
  if (entries.length === 0) return `No MCP servers for ${dir} (add them to "mcp" in hotaru.json or to .mcp.json).\n`
  const rows = entries.map((entry) => [
    entry.name,
    entry.transport ? `${entry.type} (${entry.transport})` : entry.type,
    entry.state,
    `${entry.tools.length} tool${entry.tools.length === 1 ? '' : 's'}`,
  ])
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] as string).length)))
  const lines: string[] = []
  entries.forEach((entry, i) => {
    const row = rows[i] as string[]
    lines.push(row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column] as number) : cell)).join('  '))
    if (entry.error) for (const line of entry.error.split('\n')) lines.push(`    ${line}`)
  })
  return `${lines.join('\n')}\n`
}
