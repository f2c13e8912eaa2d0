import { parsePorcelain } from '../project/git-status'
import type { AgentInfo } from './agents'
import { takeGitStatus } from './git-status-run'
import { RestrictedGitUnknown } from '../project/restricted-git'
import { findInstructionFiles } from './instructions'

export interface PromptContext {
  projectRoot: string
  globalConfigDir: string
  now?: Date
  platform?: string
  /** Extra instruction text from config (`instructions`). */
  extraInstructions?: string[]
  /** The `gitSummary` of this turn (read once per turn, in parallel with the rest of its set-up). */
  git: string
}

/** `git status` in a large repository can take seconds; the prompt says so rather than wait. */
export const GIT_SUMMARY_TIMEOUT_MS = 500

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
 * The system prompt as separate blocks: the agent's stable prompt first (cached by
 * providers that support it), then the environment and instruction files.
 */
export function buildSystemPrompt(agent: AgentInfo, ctx: PromptContext): string[] {
  const now = ctx.now ?? new Date()
  const environment = [
    '<environment>',
    `Project root: ${ctx.projectRoot}`,
    `Platform: ${ctx.platform ?? process.platform}`,
    `Today: ${now.toISOString().slice(0, 10)}`,
    `Version control: ${ctx.git}`,
    '</environment>',
  ].join('\n')
  const blocks = [agent.prompt.trim(), environment]
  const files = findInstructionFiles(ctx.projectRoot, ctx.globalConfigDir)
  const instructions = [
    ...files.map((f) => `Instructions from ${f.path}:\n${f.content.trim()}`),
    ...(ctx.extraInstructions ?? []),
  ]
  if (instructions.length > 0) blocks.push(instructions.join('\n\n'))
  return blocks
}
