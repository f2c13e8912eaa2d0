import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { HotaruError } from '@shared/errors'
import type { LspFileDiagnostics } from '@shared/ipc/lsp'
import type { Config } from '../../main/core/config'
import type { ProjectInstance } from '../../main/core/project/instance'
import { formatDiagnostic } from '../../main/core/lsp'
import type { Services } from '../../main/core/services'
import { parseCommandArgs, stringOption } from '../args'
import { cliServices, openProject } from '../context'
import { CliError } from '../errors'

const USAGE = `Usage:
  hotaru lsp status [--dir PATH] [--json]
      Each language server of the project: where it comes from, or why it is missing
  hotaru lsp diagnostics FILE… [--dir PATH] [--json] [--install-lsp]
      Starts the servers for FILEs and prints their problems (path:line:col severity CODE: message).
      Exit code 1 when any FILE has errors.

Servers come from the built-in catalog and "lsp" in hotaru.json. npm-distributed servers the project
does not have are installed into the app's data folder only with --install-lsp or "lsp": {"install": "auto"}.`

/** How long the CLI waits for a server's report: longer than an edit does, since here the report is the point. */
const CLI_WAIT_MS = 60_000

export async function runLsp(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv
  if (verb === undefined || verb === '--help' || verb === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return verb === undefined ? 2 : 0
  }
  if (verb === 'status') return status(rest)
  if (verb === 'diagnostics') return diagnostics(rest)
  throw new CliError(`unknown lsp command "${verb}"\n\n${USAGE}`)
}

async function projectConfig(services: Services, project: ProjectInstance): Promise<Config> {
  try {
    const loaded = await services.configs.of(project).load()
    for (const warning of loaded.warnings) process.stderr.write(`warning: ${warning}\n`)
    return loaded.config
  } catch (error) {
    if (error instanceof HotaruError) throw new CliError(error.message, 1)
    throw error
  }
}

async function withProject<T>(dir: string | undefined, install: boolean, run: (services: Services, projectId: string, config: Config) => Promise<T>): Promise<T> {
  const services = await cliServices()
  if (install) services.lsp.allowInstall()
  try {
    const project = openProject(services, dir)
    return await run(services, project.id, await projectConfig(services, project))
  } finally {
    // Ends every server this command started.
    await services.dispose()
  }
}

async function status(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { dir: { type: 'string' }, json: { type: 'boolean' } }, USAGE)
  return withProject(stringOption(values, 'dir'), false, async (services, projectId, config) => {
    if (config.lsp === false) {
      process.stdout.write(values.json ? '[]\n' : 'Language servers are turned off ("lsp": false).\n')
      return 0
    }
    const lsp = services.lsp.for(services.projects.get(projectId), config)
    for (const error of lsp.configErrors) process.stderr.write(`warning: ${error}\n`)
    const entries = await lsp.availability()
    if (values.json) {
      process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`)
      return 0
    }
    for (const entry of entries) {
      const where = entry.command ? `${entry.source}: ${entry.command}` : `missing: ${entry.reason ?? ''}${entry.install ? ` (npm: ${entry.install.packages.join(' ')})` : ''}`
      process.stdout.write(`${entry.id.padEnd(14)} ${entry.extensions.join(' ').padEnd(34)} ${where}\n`)
    }
    return 0
  })
}

async function diagnostics(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { dir: { type: 'string' }, json: { type: 'boolean' }, 'install-lsp': { type: 'boolean' } },
    USAGE,
    true,
  )
  if (positionals.length === 0) throw new CliError(`at least one FILE is required\n\n${USAGE}`)
  const dir = stringOption(values, 'dir')
  // Relative FILEs are in the project: against --dir when given (as every other --dir command), else the current folder.
  const base = resolve(dir ?? process.cwd())
  const given = positionals.map((p) => resolve(base, p))
  const missing = given.filter((file) => !existsSync(file))
  if (missing.length > 0) throw new CliError(missing.map((file) => `${file} does not exist`).join('\n'), 1)
  return withProject(dir, values['install-lsp'] === true, async (services, projectId, config) => {
    if (config.lsp === false) throw new CliError('language servers are turned off ("lsp": false)', 1)
    const lsp = services.lsp.for(services.projects.get(projectId), config)
    const files = given.map((file) => lsp.absPath(file))
    const uncovered = files.filter((f) => !lsp.handleFor(f))
    for (const file of uncovered) process.stderr.write(`warning: no language server covers ${lsp.relPath(file)}\n`)
    const report = await lsp.touch(files, { waitMs: CLI_WAIT_MS, quietMs: 500 })
    for (const note of report.notes) process.stderr.write(`${note}\n`)
    const wanted = new Set(files.map((f) => lsp.relPath(f)))
    const results: LspFileDiagnostics[] = lsp.allDiagnostics().filter((d) => wanted.has(d.path))
    if (values.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
    else for (const file of results) for (const d of file.diagnostics) process.stdout.write(`${formatDiagnostic(file.path, d)}\n`)
    const hasErrors = results.some((file) => file.diagnostics.some((d) => d.severity === 'error'))
    const unavailable = report.notes.length > 0 && report.files.length === 0
    return hasErrors ? 1 : unavailable ? 2 : 0
  })
}
