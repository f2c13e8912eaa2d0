import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { ProjectConfig } from '../../main/core/config/project-config'
import type { WithheldItem } from '../../main/core/config'
import { formatTime, withTrust } from '../context'
import { parseCommandArgs, stringOption } from '../args'
import { CliError } from '../errors'

const USAGE = `Usage:
  hotaru trust [--dir PATH]            Trust the folder (default: the current directory) and everything below it
  hotaru trust --revoke [--dir PATH]   Take the decision on the folder back (it is restricted again)
  hotaru trust --list                  Show every folder decision

Until a folder is trusted, Hotaru runs nothing it brings: no MCP server from its .mcp.json or
config, no tool from .hotaru/tools, no hook from its config; its permission rules can only
make things stricter, and its provider settings and {env:…}/{file:…} placeholders are not used.`

export async function runTrust(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    { dir: { type: 'string' }, revoke: { type: 'boolean' }, list: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    USAGE,
  )
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (values.list && (values.revoke || values.dir !== undefined)) throw new CliError(`--list takes no other option\n\n${USAGE}`)
  if (values.list) return list()
  const dir = await folder(stringOption(values, 'dir') ?? process.cwd())
  return values.revoke ? revoke(dir) : trust(dir)
}

async function folder(input: string): Promise<string> {
  const dir = resolve(input)
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(error.code === 'ENOENT' ? `no folder at ${dir}` : `cannot open ${dir}: ${error.code ?? error.message}`, 1)
  })
  if (!info.isDirectory()) throw new CliError(`${dir} is not a folder`, 1)
  return dir
}

async function list(): Promise<number> {
  const rows = await withTrust((trust) => trust.list())
  if (rows.length === 0) {
    process.stdout.write('No folder is trusted. Trust one with: hotaru trust --dir PATH\n')
    return 0
  }
  for (const row of rows) process.stdout.write(`${row.trusted ? 'trusted   ' : 'restricted'}  ${formatTime(row.decidedAt)}  ${row.path}\n`)
  return 0
}

async function trust(dir: string): Promise<number> {
  return withTrust(async (service) => {
    // What the folder brings, listed before it is allowed, so the user sees what they agreed to.
    const before = await new ProjectConfig(dir, { trust: service, env: process.env }).load()
    const state = service.trust(dir)
    process.stdout.write(`Trusted ${state.path} and everything below it.\n`)
    if (before.withheld.length > 0) {
      process.stdout.write(`Now allowed:\n${describe(before.withheld)}\n`)
    }
    process.stdout.write('Take it back with: hotaru trust --revoke' + (dir === process.cwd() ? '' : ` --dir ${JSON.stringify(state.path)}`) + '\n')
    return 0
  })
}

async function revoke(dir: string): Promise<number> {
  return withTrust((service) => {
    const { removed, state } = service.revoke(dir)
    if (!removed) process.stdout.write(`${state.path} had no decision of its own.\n`)
    else process.stdout.write(`Removed the decision on ${state.path}.\n`)
    if (state.trusted && state.decidedBy) {
      process.stdout.write(`It is still trusted through ${state.decidedBy}; revoke that with: hotaru trust --revoke --dir ${JSON.stringify(state.decidedBy)}\n`)
    } else {
      process.stdout.write(`${state.path} is restricted: its own MCP servers, tools and hooks do not run.\n`)
    }
    return 0
  })
}

function describe(items: readonly WithheldItem[]): string {
  return items.map((item) => `  - ${item.kind}: ${item.detail} (${item.file})`).join('\n')
}
