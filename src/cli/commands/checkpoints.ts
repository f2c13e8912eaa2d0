import type { Checkpoint, RestoreMode, RestorePreview, UntrackedFile } from '@shared/schema/checkpoint'
import type { RestoreOutcome } from '../../main/core/checkpoint/service'
import { HotaruError } from '@shared/errors'
import { checkpointTitle, fileChange } from '@shared/checkpoint-label'
import type { Services } from '../../main/core/services'
import { parseCommandArgs, stringOption } from '../args'
import { cliServices, findSession, formatTime, openProject } from '../context'
import { confirmApply } from '../confirm'
import { CliError } from '../errors'

const USAGE = `Usage:
  hotaru checkpoints list [--dir PATH] [--session ID] [--json]
  hotaru checkpoints diff ID [ID2] [--dir PATH] [--json]          (ID2 omitted: the working tree)
  hotaru checkpoints restore ID [--dir PATH] [--mode code|conversation|both] [--dry-run] [--yes] [--json]
                                [--include-user-created] [--overwrite-conflicts]

A restore is always previewed first. Files you created or edited after the agent's last
change are kept unless you opt in. Every restore can be undone: it first records the
current state as a checkpoint (shown as "undo with …").`

export async function runCheckpoints(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv
  if (verb === undefined || verb === '--help' || verb === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return verb === undefined ? 2 : 0
  }
  const handlers: Record<string, (args: string[]) => Promise<number>> = { list, diff, restore }
  const handler = handlers[verb]
  if (!handler) throw new CliError(`unknown checkpoints command "${verb}"\n\n${USAGE}`)
  return handler(rest)
}

async function withServices<T>(fn: (services: Services) => Promise<T> | T): Promise<T> {
  const services = await cliServices()
  try {
    return await fn(services)
  } catch (error) {
    if (error instanceof HotaruError) throw new CliError(error.message, 1)
    throw error
  } finally {
    await services.dispose()
  }
}

/**
 * The snapshot engine follows the project's config (exclusions, size cap). A broken
 * config must not stand between the user and their checkpoints: it is reported and the
 * defaults apply.
 */
async function loadProjectConfig(services: Services, dir: string | undefined): Promise<void> {
  try {
    await services.configs.of(openProject(services, dir)).load()
  } catch (error) {
    if (!(error instanceof HotaruError)) throw error
    process.stderr.write(`warning: ${error.message}; snapshot settings of the config are not applied\n`)
  }
}

/** `, 2 not kept (1 too large, 1 unreadable), 1 unreadable folder` */
function notKept(untracked: UntrackedFile[], folders: string[]): string {
  const parts: string[] = []
  if (untracked.length > 0) {
    const byReason = new Map<string, number>()
    for (const u of untracked) byReason.set(reasonText(u.reason), (byReason.get(reasonText(u.reason)) ?? 0) + 1)
    parts.push(`${untracked.length} not kept (${[...byReason].map(([reason, n]) => `${n} ${reason}`).join(', ')})`)
  }
  if (folders.length > 0) parts.push(`${folders.length} unreadable folder${folders.length === 1 ? '' : 's'}`)
  return parts.map((p) => `, ${p}`).join('')
}

function reasonText(reason: UntrackedFile['reason']): string {
  return reason === 'unreadable' ? 'unreadable' : 'too large'
}

/** Per file, why it is not in the checkpoint; then the folders that could not be listed. */
function notKeptLines(untracked: UntrackedFile[], folders: string[]): string[] {
  return [
    ...untracked.map((u) => `  not kept: ${u.path} (${u.reason === 'unreadable' ? 'unreadable: permission denied or an I/O error when the checkpoint was taken' : `${u.size} bytes, too large to keep`})`),
    ...folders.map((f) => `  not kept: ${f}/ (folder could not be listed; nothing under it is in the checkpoint)`),
  ]
}

/** One line per checkpoint: id, time, what happened (the timeline's words), then where it belongs. */
function describe(c: Checkpoint): string {
  const s = c.summary
  const files = s.added + s.modified + s.deleted
  // A step's label already counts its files; other checkpoints say what changed since the one before.
  const changes = c.trigger === 'step' || files === 0 ? '' : ` (since the previous: ${fileChange(c).replace(/^\w+/, (verb) => verb.toLowerCase())})`
  const untracked = notKept(s.untracked, s.unreadableFolders ?? [])
  const scope = c.scope ? `, holds only ${c.scope.length === 1 ? '1 written file' : `${c.scope.length} written files`}` : ''
  return `${c.id}  ${formatTime(c.createdAt)}  ${checkpointTitle(c)}${changes}${untracked}${scope}  [${c.trigger}, session ${c.sessionId ?? '-'}, message ${c.messageId ?? '-'}]`
}

async function list(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { dir: { type: 'string' }, session: { type: 'string' }, json: { type: 'boolean' } }, USAGE)
  return withServices((services) => {
    const project = openProject(services, stringOption(values, 'dir'))
    const sessionId = stringOption(values, 'session')
    const checkpoints = services.checkpoints.list(project.id, sessionId ? findSession(services, sessionId).id : undefined)
    if (values.json) process.stdout.write(`${JSON.stringify(checkpoints, null, 2)}\n`)
    else if (checkpoints.length === 0) process.stdout.write('No checkpoints yet.\n')
    else {
      for (const c of checkpoints) {
        process.stdout.write(`${describe(c)}\n`)
        for (const line of notKeptLines(c.summary.untracked, c.summary.unreadableFolders ?? [])) process.stdout.write(`${line}\n`)
      }
    }
    return 0
  })
}

async function diff(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { dir: { type: 'string' }, json: { type: 'boolean' } }, USAGE, true)
  const [from, to] = positionals
  if (!from) throw new CliError(`a checkpoint id is required\n\n${USAGE}`)
  return withServices(async (services) => {
    await loadProjectConfig(services, stringOption(values, 'dir'))
    const entries = await services.checkpoints.diff(from, to)
    if (values.json) {
      process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`)
      return 0
    }
    if (entries.length === 0) process.stdout.write('No differences.\n')
    for (const e of entries) {
      const mark = e.status === 'added' ? 'A' : e.status === 'deleted' ? 'D' : 'M'
      const lines = e.binary ? 'binary' : e.additions !== undefined ? `+${e.additions} -${e.deletions ?? 0}` : ''
      process.stdout.write(`${mark} ${e.path}${lines ? `  ${lines}` : ''}\n`)
    }
    return 0
  })
}

function printPreview(p: RestorePreview): void {
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`)
  }
  out(`Restore ${p.checkpointId} (${p.mode}):`)
  if (p.mode !== 'conversation') {
    for (const w of p.writes) out(`  ${w.action === 'create' ? 'create' : 'write '} ${w.path}`)
    for (const d of p.deletes) out(`  delete ${d}`)
    for (const c of p.conflicts) out(`  conflict ${c.path} (${c.reason}): ${c.resolution === 'keep' ? 'kept as it is' : 'overwritten'}`)
    for (const u of p.userCreated) out(`  your file ${u.path}: ${u.resolution === 'keep' ? 'kept' : 'deleted'}`)
    for (const s of p.skipped) out(`  skipped ${s.path} (${s.reason})`)
    for (const u of p.untracked) out(`  cannot restore ${u.path} (${u.reason === 'unreadable' ? 'it was unreadable when the checkpoint was taken' : `${u.size} bytes, too large to have been kept`})`)
    for (const f of p.unreadableFolders ?? []) out(`  cannot restore ${f}/ (the folder could not be listed when the checkpoint was taken)`)
    out(`  ${p.writes.length} to write, ${p.deletes.length} to delete, ${p.unchanged} unchanged`)
  }
  if (p.mode !== 'code') out(`  ${p.messagesRemoved} message(s) removed from the conversation`)
}

async function restore(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      dir: { type: 'string' },
      mode: { type: 'string' },
      'dry-run': { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
      json: { type: 'boolean' },
      'include-user-created': { type: 'boolean' },
      'overwrite-conflicts': { type: 'boolean' },
    },
    USAGE,
    true,
  )
  const [id] = positionals
  if (!id) throw new CliError(`a checkpoint id is required\n\n${USAGE}`)
  const mode = (stringOption(values, 'mode') ?? 'code') as RestoreMode
  if (!['code', 'conversation', 'both'].includes(mode)) throw new CliError(`--mode must be code, conversation or both, got "${mode}"`)
  const options = {
    mode,
    includeUserCreated: values['include-user-created'] === true,
    overwriteConflicts: values['overwrite-conflicts'] === true,
  }
  return withServices(async (services) => {
    await loadProjectConfig(services, stringOption(values, 'dir'))
    if (values.yes && !values['dry-run']) {
      // Nothing to confirm: the restore previews and applies in one pass over the tree.
      return printRestored(await services.checkpoints.restore(id, options), values.json === true, true)
    }
    const preview = await services.checkpoints.preview(id, options)
    const emitPreview = (): void => {
      if (values.json) process.stdout.write(`${JSON.stringify({ preview }, null, 2)}\n`)
      else printPreview(preview)
    }
    if (values['dry-run']) {
      emitPreview()
      return 0
    }
    if (!values.yes) {
      emitPreview()
      const refused = await confirmApply('hotaru checkpoints restore', 'Apply this restore?')
      if (refused !== null) return refused
    }
    const result = await services.checkpoints.restore(id, { ...options, expectCurrentId: preview.currentId ?? undefined })
    return printRestored(result, values.json === true, false)
  })
}

function printRestored(result: RestoreOutcome, json: boolean, showPreview: boolean): number {
  if (json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    return 0
  }
  if (showPreview) printPreview(result.preview)
  process.stdout.write(`Restored: ${result.written} written, ${result.deleted} deleted, ${result.messagesRemoved} message(s) removed.\n`)
  if (result.undoCheckpointId) process.stdout.write(`Undo with: hotaru checkpoints restore ${result.undoCheckpointId} --yes\n`)
  return 0
}
