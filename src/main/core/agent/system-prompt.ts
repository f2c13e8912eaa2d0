import { execFileSync } from 'node:child_process'
import type { AgentInfo } from './agents'
import { findInstructionFiles } from './instructions'

export interface PromptContext {
  projectRoot: string
  globalConfigDir: string
  now?: Date
  platform?: string
  /** Extra instruction text from config (`instructions`). */
  extraInstructions?: string[]
}

/** A short `git status` summary, or why there is none. */
export function gitSummary(root: string): string {
  try {
    const branch = execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: root, encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] })
    const changed = status.split('\n').filter(Boolean).length
    return `git repository, branch ${branch}, ${changed === 0 ? 'clean' : `${changed} changed file(s)`}`
  } catch {
    return 'not a git repository (or git is unavailable)'
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
    `Version control: ${gitSummary(ctx.projectRoot)}`,
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
