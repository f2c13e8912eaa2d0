import { parsePorcelain } from '../project/git-status'
import type { AgentInfo } from './agents'
import { takeGitStatus } from './git-status-run'
import { RestrictedGitUnknown } from '../project/restricted-git'
import { findInstructionFiles } from './instructions'
import { type ContextSection, instructionSection } from '../context/turn-context'

export interface PromptContext {
  projectRoot: string
  platform?: string
  /** Extra instruction text from config (`instructions`) and the project's stable blocks (skills, agents, ports). */
  extraInstructions?: string[]
}

export interface TurnFacts {
  projectRoot: string
  globalConfigDir: string
  now?: Date
  /** The `gitSummary` of this turn (read once per turn, in parallel with the rest of its set-up). */
  git: string
  /** The project memory block, when there is one. */
  memory?: string
}

/** `git status` in a large repository can take seconds: past this it is stopped and the status is unknown. */
export const GIT_SUMMARY_TIMEOUT_MS = 2_000

/**
 * How long a turn's first request waits for `git status` once the rest of its set-up is done. `hotaru run`
 * starts it before its modules load, so in most repositories it is done by then; where it is not (a large
 * tree whose index does not match the files' stat data, as after a copy: every file is read again), its
 * summary follows with a later request of the turn instead of holding up the first.
 */
export const GIT_SUMMARY_WAIT_MS = 100

/** What the turn's message says while `git status` is still running. */
export const GIT_SUMMARY_PENDING = 'git status still running (a large repository); its summary follows in a later message'

/** The git summary of a turn: what its first request says, and the summary that follows when it was not ready. */
export interface TurnGitSummary {
  now: string
  /** Set when `now` is `GIT_SUMMARY_PENDING`: the summary (or why there is none) once git answered. */
  later?: Promise<string>
}

/** `gitSummary`, waited for at most `waitMs`; past that the summary comes later (`TurnGitSummary`). */
export async function turnGitSummary(root: string, options: { restricted: boolean; waitMs?: number; timeoutMs?: number }): Promise<TurnGitSummary> {
  const summary = gitSummary(root, { restricted: options.restricted, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) })
  let timer: NodeJS.Timeout | undefined
  const waited = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), options.waitMs ?? GIT_SUMMARY_WAIT_MS)
  })
  try {
    const now = await Promise.race([summary, waited])
    return now === undefined ? { now: GIT_SUMMARY_PENDING, later: summary } : { now }
  } finally {
    clearTimeout(timer)
  }
}

const TIMED_OUT = Symbol('timed out')

/**
 * A short `git status` summary for the system prompt, or why there is none. Asynchronous (the
 * event loop keeps serving streams and terminals meanwhile) and capped at `timeoutMs`: past it
 * the prompt says the status is unknown and the git process is killed. In a `restricted` folder
 * (not trusted) git runs nothing the repository's own config names (`restrictedGit`).
 */
export async function gitSummary(root: string, options: { restricted: boolean; timeoutMs?: number }): Promise<string> {
  const timeoutMs = options.timeoutMs ?? GIT_SUMMARY_TIMEOUT_MS
  let timer: NodeJS.Timeout | undefined
  const cap = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)
  })
  // Started at the command's start when it prefetched it (`prefetchGitStatus`).
  const run = takeGitStatus(root, options.restricted)
  const work = run.output
  try {
    const result = await Promise.race([work, cap])
    if (result === TIMED_OUT) {
      run.abort()
      // The aborted calls reject; that is the expected end of them.
      work.catch(() => undefined)
      return `git repository status unknown (git status took over ${timeoutMs} ms)`
    }
    const { branch, files } = parsePorcelain(result, '')
    const changed = Object.keys(files).length
    return `git repository, ${branch ? `branch ${branch}` : 'detached HEAD'}, ${changed === 0 ? 'clean' : `${changed} changed file(s)`}`
  } catch (error) {
    if (error instanceof RestrictedGitUnknown) return error.message
    return 'not a git repository (or git is unavailable)'
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The system prompt as separate blocks: the agent's prompt, where and on what it runs, and the
 * config's own instructions. Nothing in it changes from turn to turn (the provider caches the
 * prefix it starts); what does travels with each turn's message (`turnSections`).
 */
export function buildSystemPrompt(agent: AgentInfo, ctx: PromptContext): string[] {
  const environment = ['<environment>', `Project root: ${ctx.projectRoot}`, `Platform: ${ctx.platform ?? process.platform}`, '</environment>'].join('\n')
  const blocks = [agent.prompt.trim(), environment]
  const extra = ctx.extraInstructions ?? []
  if (extra.length > 0) blocks.push(extra.join('\n\n'))
  return blocks
}

/** What this turn knows that may differ from the last: the date, git status, instruction files and memory. */
export function turnSections(facts: TurnFacts): ContextSection[] {
  const now = facts.now ?? new Date()
  const files = findInstructionFiles(facts.projectRoot, facts.globalConfigDir)
  return [
    { name: 'date', text: now.toISOString().slice(0, 10) },
    { name: 'git', text: facts.git },
    ...files.map((f) => instructionSection(f.path, f.content)),
    ...(facts.memory ? [{ name: 'memory', text: facts.memory }] : []),
  ]
}
