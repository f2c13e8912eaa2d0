import { HotaruError } from '@shared/errors'
import type { Review, ReviewConflict } from '@shared/schema/review'
import type { Services } from '../../main/core/services'
import { lastTurnRange } from '../../main/core/review/range'
import { parseCommandArgs, stringOption, type ParsedArgs } from '../args'
import { cliServices, findSession, openProject } from '../context'
import { CliError } from '../errors'

const USAGE = `Usage:
  hotaru review show   [--dir PATH] [--session ID] [--from CP --to CP] [--json]
  hotaru review accept [--dir PATH] [--session ID] [--from CP --to CP] [--path FILE [--hunk N]] [--json]
  hotaru review reject [--dir PATH] [--session ID] [--from CP --to CP] [--path FILE [--hunk N]] [--json]

Reviews a turn's changes: by default the last turn of the session (default: the most recent
session) that changed files. Without --path, accept/reject applies to every file. Rejecting
reverts on disk (a new file is deleted) after a "review" checkpoint that undoes it; the model
is told what was rejected with the session's next message (also in the app).`

const OPTIONS = {
  dir: { type: 'string' },
  session: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  path: { type: 'string' },
  hunk: { type: 'string' },
  json: { type: 'boolean' },
} as const

export async function runReview(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv
  if (verb === undefined || verb === '--help' || verb === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return verb === undefined ? 2 : 0
  }
  if (verb !== 'show' && verb !== 'accept' && verb !== 'reject') throw new CliError(`unknown review command "${verb}"\n\n${USAGE}`)
  const { values } = parseCommandArgs(rest, OPTIONS, USAGE)
  const services = await cliServices()
  try {
    const range = resolveRange(services, values)
    if (verb === 'show') {
      print(await services.reviews.get(range), [], values.json === true)
      return 0
    }
    const hunkOption = stringOption(values, 'hunk')
    const hunk = hunkOption === undefined ? undefined : Number(hunkOption)
    if (hunk !== undefined && (!Number.isInteger(hunk) || hunk < 0)) throw new CliError(`--hunk must be a hunk number (0, 1, …), not "${hunkOption}"`)
    const path = stringOption(values, 'path')
    if (hunk !== undefined && path === undefined) throw new CliError('--hunk needs --path')
    const outcome = await services.reviews.decide({ ...range, action: verb, ...(path !== undefined ? { path } : {}), ...(hunk !== undefined ? { hunk } : {}) })
    print(outcome.review, outcome.conflicts, values.json === true)
    if (outcome.undoCheckpointId && values.json !== true) process.stdout.write(`undo with: hotaru checkpoints restore ${outcome.undoCheckpointId}\n`)
    return outcome.conflicts.length > 0 ? 1 : 0
  } catch (error) {
    if (error instanceof HotaruError) throw new CliError(error.message, 1)
    throw error
  } finally {
    await services.dispose()
  }
}

function resolveRange(services: Services, values: ParsedArgs['values']): { sessionId: string; fromId: string; toId: string } {
  const project = openProject(services, stringOption(values, 'dir'))
  const sessionOption = stringOption(values, 'session')
  const session = sessionOption ? findSession(services, sessionOption) : services.sessions.list(project.id)[0]
  if (!session) throw new CliError('no session in this project yet', 1)
  const from = stringOption(values, 'from')
  const to = stringOption(values, 'to')
  if (from !== undefined || to !== undefined) {
    if (from === undefined || to === undefined) throw new CliError('--from and --to go together')
    return { sessionId: session.id, fromId: services.checkpoints.get(from).id, toId: services.checkpoints.get(to).id }
  }
  const range = lastTurnRange(services.checkpoints.list(project.id, session.id))
  if (!range) throw new CliError(`no turn of session ${session.id} changed files`, 1)
  return { sessionId: session.id, ...range }
}

function print(review: Review, conflicts: ReviewConflict[], json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify({ review, conflicts }, null, 2)}\n`)
    return
  }
  process.stdout.write(`session ${review.sessionId}  ${review.fromId} → ${review.toId}\n`)
  for (const file of review.files) {
    const decided = file.hunks.filter((h) => h.decision).length
    const state = file.reviewed ? 'reviewed' : `${decided}/${file.hunks.length} decided`
    process.stdout.write(`${file.status.padEnd(8)} ${file.path}  (${state})\n`)
    for (const h of file.hunks) {
      const adds = h.lines.filter((l) => l.kind === 'add').length
      const dels = h.lines.filter((l) => l.kind === 'del').length
      process.stdout.write(`  hunk ${h.index}  @@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@  +${adds} -${dels}  ${h.decision ?? 'open'}\n`)
    }
  }
  for (const c of conflicts) process.stdout.write(`not done: ${c.path}${c.hunk !== undefined ? ` hunk ${c.hunk}` : ''}: ${c.reason}\n`)
}
