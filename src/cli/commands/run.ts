import { realpathSync } from 'node:fs'
import { resolve } from 'node:path'
import { prefetchGitStatus } from '../../main/core/agent/git-status-run'
import { defaultDataDir } from '../../main/core/config/paths'
import { discardPrespawned, prespawnServer, typescriptLaunchAhead } from '../../main/core/lsp/prespawn'
import { installProcessMarker } from '../../main/core/process/owner-marker'
import { forgetInheritedPorts } from '../../main/core/project/command-env'
import type { BusEvent } from '../../main/core/bus/bus'
import type { Services } from '../../main/core/services'
import { EFFORTS, type Effort, isEffort } from '@shared/schema/effort'
import type { ProviderSettings } from '../../main/core/provider'
import { clampEffort, deprecationNotice } from '../../main/core/provider'
import type { Session } from '@shared/schema/session'
import type { PromptImage } from '../../main/core/agent/prompt-images'
import { parseCommandArgs, stringOption, stringsOption } from '../args'
import { CliError } from '../errors'
import { takeWorktreeFlag } from '../worktree-flag'
import { runExitCode } from '../exit-codes'

const USAGE = `Usage: hotaru run [options] [--image FILE]… MESSAGE…

Runs one turn of the agent in a project and prints the answer.

Options:
  --dir PATH            Project folder (default: the current directory)
  --model PROVIDER/ID   Model, e.g. anthropic/claude-sonnet-5-5 or openai/gpt-6.2-sol
  --effort LEVEL        Reasoning effort: off, low, medium, high or max (default: config, else the
                        model's own default, with reasoning on wherever the model supports it);
                        remembered by the session
  --agent NAME          Agent: build (default), plan, or one from config
  --image FILE          Attach an image (PNG, JPEG, GIF or WebP; repeatable). The model must take
                        images; each must fit its API (Anthropic: 5 MB encoded, 8000 px a side)
  --session ID          Continue this session (id or unique prefix)
  --continue, -c        Continue the project's most recent session
  --worktree, -w [NAME] Run in worktree NAME of the project (created when new; a name is generated
                        when omitted): a git worktree on branch hotaru/NAME, or a copy of a non-git
                        folder. Its path is printed on stderr first. With --continue: that
                        worktree's latest session. NAME must directly follow the flag.
  --format text|json    text: answer on stdout, tool activity on stderr (default)
                        json: one JSON event per line on stdout
  --yes, -y             Answer every permission ask with "allow once"
  --install-lsp         Install missing language servers (npm) into the app's data folder without asking
  -h, --help            Show this help

Without --yes, permission asks are answered at the terminal when stdin is a TTY
and rejected otherwise (the model is told why).

Exit codes: 0 the turn finished (also at the step limit, or stopped by a rejected
permission), 1 it failed, 2 bad arguments, 3 the model refused or the provider's
content filter withheld the answer, 4 the answer was cut off at the output limit
(after one automatic continuation), 130 stopped (Ctrl+C).`

type Format = 'text' | 'json'

/** Options of `run` that take a value (so `--worktree` does not take one of them for its name). */
const VALUED = new Set(['--dir', '--model', '--effort', '--agent', '--session', '--format', '--image'])

export async function runRun(rawArgv: string[]): Promise<number> {
  const { argv, worktree } = takeWorktreeFlag(rawArgv, VALUED)
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      dir: { type: 'string' },
      model: { type: 'string' },
      effort: { type: 'string' },
      agent: { type: 'string' },
      image: { type: 'string', multiple: true },
      session: { type: 'string' },
      continue: { type: 'boolean', short: 'c' },
      format: { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      'install-lsp': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
    true,
  )
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const message = positionals.join(' ').trim()
  const imagePaths = stringsOption(values, 'image')
  if (!message && imagePaths.length === 0) throw new CliError(`a message is required\n\n${USAGE}`)
  const format = (stringOption(values, 'format') ?? 'text') as Format
  if (format !== 'text' && format !== 'json') throw new CliError(`--format must be text or json, got "${format}"`)
  const model = stringOption(values, 'model')
  if (model !== undefined && !/^[^/\s]+\/\S+$/.test(model)) throw new CliError(`--model must look like provider/model, got "${model}"`)
  if (values.session && values.continue) throw new CliError('use either --session or --continue, not both')
  const effortOption = stringOption(values, 'effort')
  if (effortOption !== undefined && !isEffort(effortOption)) {
    throw new CliError(`--effort must be one of ${EFFORTS.join(', ')}, got "${effortOption}"`)
  }
  const effort = effortOption

  // Images are read and checked (type by content, size) before anything starts: a bad file costs nothing.
  const images = await readImages(imagePaths)
  // The system prompt's `git status` runs while the core loads (in a large repository it takes
  // about as long), and so does the TypeScript server's start. A worktree's folder is known only once it is opened.
  if (worktree === undefined) startAhead(stringOption(values, 'dir'))
  // The core loads only now: `run --help` and argument errors stay instant.
  const [{ HotaruError }, { restrictedSummary }, { cliServices, openProject }, { answerPermissions }, { sandboxContext, sandboxStatusLine }] =
    await Promise.all([
      import('@shared/errors'),
      import('../../main/core/config/project-config'),
      import('../context'),
      import('../permission-prompt'),
      import('../../main/core/sandbox/status'),
    ])
  // What started ahead ends with the command, however it ends.
  const services = await cliServices({ runsTurns: true }).catch(async (error: unknown) => {
    await discardPrespawned()
    throw error
  })
  // Sessions that opened read-only (a full data disk) cannot take a turn: say so before anything is sent.
  const readOnly = (await import('../../main/core/storage/database')).readOnlyError(services.storage.db)
  if (readOnly) {
    await services.dispose()
    await discardPrespawned()
    throw readOnly
  }
  if (values['install-lsp']) services.lsp.allowInstall()
  const controller = new AbortController()
  const onSignal = (): void => controller.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  let releaseWorktree: (() => void) | undefined
  try {
    const dir = stringOption(values, 'dir')
    const inWorktree = worktree === undefined ? undefined : await openWorktree(services, dir, worktree === true ? undefined : worktree)
    const project = inWorktree?.project ?? openProject(services, dir)
    // Before anything else is printed, so a script can find the folder the turn works in.
    if (inWorktree) {
      process.stderr.write(`worktree ${inWorktree.worktree.name}: ${inWorktree.worktree.path}\n`)
      // Other processes (`hotaru worktrees list`, the app) see it running until this run ends.
      releaseWorktree = services.worktrees.markRunning(project.id)
    }
    let snapshot
    try {
      snapshot = await services.configs.of(project).load()
    } catch (error) {
      if (error instanceof HotaruError) throw new CliError(error.message, 1)
      throw error
    }
    const config = snapshot.config
    process.stderr.write(`${sandboxStatusLine(config.sandbox, sandboxContext({ projectRoot: project.root, dataDir: services.info().dataDir }))}\n`)
    // Said once here; the turn's own notices about the same things are not repeated.
    for (const warning of snapshot.warnings) process.stderr.write(`warning: ${warning}\n`)
    if (snapshot.withheld.length > 0) process.stderr.write(`${restrictedSummary(snapshot.withheld, project.root)}\n`)
    const told = new Set([...snapshot.warnings, restrictedSummary(snapshot.withheld, project.root)])
    const tell = (notice: string): void => {
      if (!told.has(notice)) process.stderr.write(`warning: ${notice}\n`)
      told.add(notice)
    }
    const session = await pickSession(services, project.id, {
      sessionId: stringOption(values, 'session'),
      continueLast: values.continue === true,
      agent: stringOption(values, 'agent') ?? snapshot.defaults.agent,
      model: model ?? snapshot.defaults.model,
    })
    tellModelNotices(services, services.sessions.get(session.id), { model, effort, providerSettings: snapshot.providerSettings }, tell)
    const output = format === 'json' ? jsonOutput() : textOutput()
    const events = services.bus.subscribe((event) => {
      if (event.channel === 'project:notice' || event.channel === 'mcp:warning') tell(event.envelope.payload.message)
      else if (sessionOf(event) === session.id || event.channel.startsWith('permission:')) output(event)
    })
    // What was noticed before this point (MCP servers start as the project opens) is in the project's notices.
    for (const notice of services.notices.list(project.id)) tell(notice.message)
    const stopAsking = answerPermissions(services, {
      sessionId: session.id,
      mode: values.yes ? 'yes' : process.stdin.isTTY ? 'tty' : 'reject',
      format,
    })
    controller.signal.addEventListener('abort', () => services.agents.abort(session.id))
    if (format === 'json') writeJson({ type: 'session', session: services.sessions.get(session.id) })
    const result = await services.agents.prompt({
      sessionId: session.id,
      // Changes rejected in a review since the last message are told to the model ahead of this one.
      text: services.reviews.withNote(session.id, message),
      agent: stringOption(values, 'agent'),
      model,
      effort,
      images,
    })
    await services.agents.settleTitles(2000)
    stopAsking()
    events.dispose()
    if (format === 'json') {
      writeJson({
        type: 'done',
        sessionId: session.id,
        status: result.status,
        steps: result.steps,
        finish: result.finish,
        truncated: result.status === 'truncated',
        refused: result.status === 'refused',
        ...(result.detail ? { detail: result.detail } : {}),
        error: result.error,
      })
    } else process.stdout.write('\n')
    if (result.status === 'refused') {
      const why = result.finish === 'content_filter' ? "the provider's content filter withheld the answer" : 'the model declined to answer'
      process.stderr.write(`hotaru run: ${why}${result.detail ? `: ${result.detail}` : ''}\n`)
      process.stderr.write(`session ${session.id}\n`)
      return 3
    }
    if (result.status === 'truncated') {
      process.stderr.write('hotaru run: the answer was cut off at the output limit, also after one continuation\n')
      process.stderr.write(`session ${session.id}\n`)
      return 4
    }
    if (result.status === 'error') {
      process.stderr.write(`hotaru run: ${result.error?.data.message ?? 'the turn failed'}\n`)
      // Refused before anything was sent or written: a script may wait and run it again.
      return result.error ? runExitCode(result.error.name) : 1
    }
    if (result.status === 'aborted') {
      process.stderr.write('hotaru run: stopped\n')
      return 130
    }
    if (result.status === 'max-turns') process.stderr.write('hotaru run: stopped at the step limit\n')
    process.stderr.write(`session ${session.id}\n`)
    if (inWorktree) process.stderr.write(`merge back with: hotaru worktrees merge ${inWorktree.worktree.name} --dir ${JSON.stringify(inWorktree.parent.root)}\n`)
    return 0
  } finally {
    releaseWorktree?.()
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await services.dispose()
    await discardPrespawned()
  }
}

async function readImages(paths: string[]): Promise<PromptImage[]> {
  if (paths.length === 0) return []
  const [{ HotaruError }, { readImageFile }] = await Promise.all([import('@shared/errors'), import('../../main/core/images')])
  const images: PromptImage[] = []
  for (const path of paths) {
    try {
      images.push({ original: await readImageFile(resolve(path)) })
    } catch (error) {
      if (error instanceof HotaruError) throw new CliError(error.message.replace(resolve(path), path), 1)
      throw error
    }
  }
  return images
}

/**
 * One line each for what the user should know about the model before the turn: it is
 * deprecated (with its successor), or the effort asked for is not one it takes.
 */
function tellModelNotices(
  services: Services,
  session: Session,
  options: { model: string | undefined; effort: Effort | undefined; providerSettings: ProviderSettings },
  tell: (notice: string) => void,
): void {
  const info = services.providers.model(options.model ?? session.model, options.providerSettings)
  const deprecated = deprecationNotice(info)
  if (deprecated) tell(deprecated)
  if (options.effort === undefined) return
  if (!info.capabilities.reasoning) {
    if (options.effort !== 'off') tell(`${info.id} does not reason; --effort ${options.effort} changes nothing`)
    return
  }
  const used = clampEffort(info.reasoning, options.effort)
  if (used !== options.effort) tell(`${info.id} does not take --effort ${options.effort}; it runs at ${used}`)
}

/**
 * `git status` and the TypeScript server for the project folder `dir` names, as the project will hold it (its
 * real path): started now, taken by the turn.
 */
function startAhead(dir: string | undefined): void {
  let root: string
  try {
    root = realpathSync(resolve(dir ?? process.cwd()))
  } catch {
    // A folder that cannot be opened is reported when the project opens, with the path as given.
    return
  }
  // What the core does to this process's environment as it loads (host-process.ts), done first: what starts
  // ahead runs with the environment the core would start it with.
  forgetInheritedPorts()
  installProcessMarker(defaultDataDir())
  prefetchGitStatus(root)
  const launch = typescriptLaunchAhead(root, process.env)
  if (launch) prespawnServer(launch)
}

/** Worktree `name` of the project at `dir` (created when new or unnamed), opened for the turn. */
async function openWorktree(services: Services, dir: string | undefined, name: string | undefined) {
  const [{ HotaruError }, { mainProject }] = await Promise.all([import('@shared/errors'), import('./worktrees')])
  const parent = mainProject(services, dir)
  try {
    const opened = name && services.storage.worktrees.get(parent.id, name) ? await services.worktrees.open(parent, name) : await services.worktrees.create(parent, { name })
    return { ...opened, parent }
  } catch (error) {
    if (error instanceof HotaruError) throw new CliError(error.message, 1)
    throw error
  }
}

async function pickSession(
  services: Services,
  projectId: string,
  options: { sessionId?: string; continueLast: boolean; agent: string; model: string },
) {
  if (options.sessionId) {
    const { findSession } = await import('../context')
    const session = findSession(services, options.sessionId)
    if (session.projectId !== projectId) throw new CliError(`session ${session.id} belongs to another project`, 1)
    return session
  }
  if (options.continueLast) {
    const [last] = services.sessions.list(projectId, { roots: true, limit: 1 })
    if (!last) throw new CliError('no session to continue in this project', 1)
    return last
  }
  return services.sessions.create({ projectId, agent: options.agent, model: options.model })
}

function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`)
}

/** One JSON line per event of the session: `{type: "session:part", seq, …payload}`. */
function jsonOutput(): (event: BusEvent) => void {
  return (event) => writeJson({ type: event.channel, ...event.envelope.payload })
}

/** The answer streams to stdout; tool activity and retries go to stderr. */
function textOutput(): (event: BusEvent) => void {
  const textParts = new Set<string>()
  const announced = new Map<string, string>()
  /** Messages whose unusual stop was already told. */
  const stopped = new Set<string>()
  let wroteText = false
  let endsWithNewline = true
  const write = (text: string): void => {
    process.stdout.write(text)
    if (text.length > 0) endsWithNewline = text.endsWith('\n')
  }
  return (event) => {
    if (event.channel === 'session:part') {
      const part = event.envelope.payload.part
      if (part.type === 'text' && !part.synthetic && !textParts.has(part.id)) {
        textParts.add(part.id)
        // Separate the answers of successive steps by a blank line.
        if (wroteText) write(endsWithNewline ? '\n' : '\n\n')
        wroteText = true
      }
      if (part.type === 'text' && part.synthetic) write(`${part.text}\n`)
      if (part.type === 'hook') for (const f of part.failures) process.stderr.write(`warning: ${part.event} hook \`${f.command}\` failed: ${f.error}\n`)
      if (part.type === 'tool') {
        const key = `${part.state.status}`
        if (announced.get(part.id) === key) return
        announced.set(part.id, key)
        const hookFailures = part.state.metadata?.hookFailures
        if (part.state.status !== 'running' && Array.isArray(hookFailures)) {
          for (const f of hookFailures as Array<{ event?: string; command?: string; error?: string }>) {
            process.stderr.write(`warning: ${f.event ?? 'tool'} hook \`${f.command ?? ''}\` failed: ${f.error ?? ''}\n`)
          }
        }
        const title = part.state.title ?? summarizeInput(part.state.input)
        if (part.state.status === 'running') process.stderr.write(`• ${part.tool} ${title}\n`)
        else if (part.state.status === 'error') process.stderr.write(`✗ ${part.tool} ${title}: ${(part.state.error ?? '').split('\n')[0]}\n`)
        else if (part.state.status === 'interrupted') process.stderr.write(`✗ ${part.tool} ${title}: interrupted\n`)
      }
    } else if (event.channel === 'session:delta' && textParts.has(event.envelope.payload.partId)) {
      write(event.envelope.payload.delta)
    } else if (event.channel === 'session:message') {
      const notice = stopNotice(event.envelope.payload.message.finish)
      if (notice && event.envelope.payload.message.completedAt !== undefined && !stopped.has(event.envelope.payload.message.id)) {
        stopped.add(event.envelope.payload.message.id)
        process.stderr.write(`${endsWithNewline ? '' : '\n'}… ${notice}\n`)
      }
    } else if (event.channel === 'session:partRemoved' && textParts.has(event.envelope.payload.partId)) {
      process.stderr.write('\n… the provider failed mid-answer; retrying (the text above is replaced)\n')
    } else if (event.channel === 'session:status') {
      const status = event.envelope.payload.status
      if (status.type === 'retry') {
        const seconds = Math.max(0, Math.round((status.nextAt - Date.now()) / 1000))
        process.stderr.write(`… ${status.message}; retry ${status.attempt} in ${seconds}s\n`)
      }
    }
  }
}

/** What the user is told on stderr when a step ends other than normally (the final outcome is told at the end). */
function stopNotice(finish: string | undefined): string | undefined {
  switch (finish) {
    case 'length':
      return 'response cut off at the output limit'
    case 'context_window':
      return 'the context window filled up; compacting the conversation and asking again'
    case 'interrupted':
      return 'the response broke off after a tool call; going on with a new request'
    // Still streaming: nothing to tell yet.
    case undefined:
      return undefined
    default:
      // A normal end (`stop`, `tool_calls`), or one the final outcome tells (refusal, filter, error).
      return undefined
  }
}

/** The session an event is about, when it is about one. */
function sessionOf(event: BusEvent): string | undefined {
  const payload: object = event.envelope.payload
  return 'sessionId' in payload && typeof payload.sessionId === 'string' ? payload.sessionId : undefined
}

function summarizeInput(input: unknown): string {
  if (typeof input !== 'object' || input === null) return ''
  const record = input as Record<string, unknown>
  for (const key of ['command', 'filePath', 'path', 'pattern', 'url', 'description']) {
    if (typeof record[key] === 'string') return (record[key] as string).slice(0, 120)
  }
  return ''
}
