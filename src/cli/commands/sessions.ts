import type { MessageWithParts, Session } from '@shared/schema/session'
import { parseCommandArgs, stringOption } from '../args'
import { cliServices, findSession, formatTime, openProject } from '../context'
import { CliError } from '../errors'

const USAGE = `Usage:
  hotaru sessions list [--dir PATH] [--json]   Sessions of the project, newest first
  hotaru sessions show ID [--json]            A session's transcript
  hotaru sessions export ID                   The transcript as JSON (stdout)`

export async function runSessions(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv
  if (verb === undefined || verb === '--help' || verb === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return verb === undefined ? 2 : 0
  }
  if (verb === 'list') return list(rest)
  if (verb === 'show') return show(rest, false)
  if (verb === 'export') return show(rest, true)
  throw new CliError(`unknown sessions command "${verb}"\n\n${USAGE}`)
}

async function list(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { dir: { type: 'string' }, json: { type: 'boolean' } }, USAGE)
  const services = await cliServices()
  try {
    const project = openProject(services, stringOption(values, 'dir'))
    const sessions = services.sessions.list(project.id)
    if (values.json) {
      process.stdout.write(`${JSON.stringify(sessions.map(summary), null, 2)}\n`)
      return 0
    }
    if (sessions.length === 0) {
      process.stdout.write(`No sessions in ${project.root} yet.\n`)
      return 0
    }
    for (const s of sessions) {
      const parent = s.parentId ? `  (subagent of ${s.parentId})` : ''
      process.stdout.write(`${s.id}  ${formatTime(s.updatedAt)}  ${s.agent.padEnd(8)} ${s.title}${parent}\n`)
    }
    return 0
  } finally {
    await services.dispose()
  }
}

async function show(argv: string[], exportJson: boolean): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' } }, USAGE, true)
  const id = positionals[0]
  if (!id) throw new CliError(`a session id is required\n\n${USAGE}`)
  const services = await cliServices()
  try {
    const session = findSession(services, id)
    const messages = services.sessions.messages(session.id)
    if (exportJson || values.json) {
      process.stdout.write(`${JSON.stringify({ session, messages }, null, 2)}\n`)
      return 0
    }
    process.stdout.write(renderTranscript(session, messages))
    return 0
  } finally {
    await services.dispose()
  }
}

function summary(s: Session) {
  return { id: s.id, title: s.title, agent: s.agent, model: s.model, parentId: s.parentId, createdAt: s.createdAt, updatedAt: s.updatedAt }
}

export function renderTranscript(session: Session, messages: MessageWithParts[]): string {
  const lines = [`# ${session.title}`, `${session.id} · ${session.agent} · ${session.model}`, '']
  for (const { info, parts } of messages) {
    lines.push(info.role === 'user' ? '## You' : `## ${info.agent} (${info.model})`)
    for (const part of parts) {
      if (part.type === 'text') lines.push(part.text)
      else if (part.type === 'reasoning' && part.text) lines.push(`> (thinking) ${part.text.split('\n').join('\n> ')}`)
      else if (part.type === 'tool') {
        const title = part.state.title ? ` ${part.state.title}` : ''
        lines.push(`[${part.tool}${title}] ${part.state.status}`)
        if (part.state.status === 'error' && part.state.error) lines.push(`  ${part.state.error.split('\n')[0]}`)
      }
    }
    if (info.error) lines.push(`(${info.error.name}: ${info.error.data.message})`)
    lines.push('')
  }
  return `${lines.join('\n')}\n`
}
