import type { MessageWithParts, Part, PartOf } from '@shared/schema/session'
import { toolOutputForModel } from './placeholder'
import { CHARS_PER_TOKEN } from './tokens'
import { isStateSection } from './turn-context'

/**
 * The conversation as plain text for the compaction agent. Plain text (no tool
 * blocks) keeps the summary request valid whatever state the transcript is in,
 * and lets it shrink step by step when it would not fit the summarizing model:
 * first long tool output is clipped, then dropped, then older turns are left out,
 * and as a last resort the text is cut in the middle. It never fails for size.
 */

export type DegradeLevel = 'full' | 'clipped' | 'no-outputs' | 'fewer-turns' | 'truncated'

export const DEGRADE_ORDER: readonly DegradeLevel[] = ['full', 'clipped', 'no-outputs', 'fewer-turns', 'truncated']

export interface SummaryInput {
  text: string
  level: DegradeLevel
  /** Covered messages left out of the text (oldest first), at `fewer-turns` and below. */
  omittedMessages: number
}

interface RenderOptions {
  outputChars: number
  inputChars: number
  reasoning: boolean
}

const RENDER: Record<'full' | 'clipped' | 'no-outputs', RenderOptions> = {
  full: { outputChars: Number.POSITIVE_INFINITY, inputChars: Number.POSITIVE_INFINITY, reasoning: true },
  clipped: { outputChars: 2_000, inputChars: 1_000, reasoning: false },
  'no-outputs': { outputChars: 0, inputChars: 300, reasoning: false },
}

/** Keeps the head and the end of a long text (both tend to matter: the start and the result). */
export function clipMiddle(text: string, max: number): string {
  if (text.length <= max) return text
  if (max <= 0) return ''
  const note = `\n…[${text.length - max} characters left out]…\n`
  const room = Math.max(0, max - note.length)
  const head = Math.ceil(room * 0.7)
  return text.slice(0, head) + note + text.slice(text.length - (room - head))
}

function renderInput(input: unknown, max: number): string {
  const text = input === undefined ? '{}' : typeof input === 'string' ? input : JSON.stringify(input)
  return clipMiddle(text, max)
}

function renderPart(part: Part, options: RenderOptions): string | undefined {
  switch (part.type) {
    case 'text':
      return part.text.trim().length > 0 ? part.text : undefined
    case 'reasoning':
      return options.reasoning && part.text.trim().length > 0 ? `(thinking) ${part.text}` : undefined
    case 'tool': {
      const head = `[tool ${part.tool} ${renderInput(part.state.input, options.inputChars)} → ${part.state.status}]`
      if (options.outputChars <= 0) return head
      const output = toolOutputForModel(part)
      return output.length > 0 ? `${head}\n${clipMiddle(output, options.outputChars)}` : head
    }
    case 'image':
      // The summary is text: the model that writes it learns that an image was there, and its name.
      return `[image ${part.name}, ${part.width}×${part.height}]`
    case 'context':
      return renderNews(part, options)
    // Step markers and failed hooks were never sent to the model; the covered range holds no compaction marker
    // (the previous summary is passed on its own).
    case 'step-start':
    case 'step-finish':
    case 'hook':
    case 'compaction':
      return undefined
  }
}

/**
 * The one-off news a `context` part told the model (late language-server diagnostics), clipped like tool
 * output: the summary replaces the message that carried it, so only the summary can say what was still wrong.
 * State sections (date, git, instructions, memory) are left out: their latest text travels with the summary
 * verbatim (see `ContextView.carried`).
 */
function renderNews(part: PartOf<'context'>, options: RenderOptions): string | undefined {
  if (options.outputChars <= 0) return undefined
  const news = part.sections.filter((section) => !isStateSection(section.name) && section.text.trim().length > 0)
  if (news.length === 0) return undefined
  return news.map((section) => `[${section.name}]\n${clipMiddle(section.text, options.outputChars)}`).join('\n')
}

function renderMessage(message: MessageWithParts, options: RenderOptions): string {
  const body = message.parts
    .map((part) => renderPart(part, options))
    .filter((text): text is string => text !== undefined)
    .join('\n')
  return `## ${message.info.role === 'user' ? 'User' : 'Assistant'}\n${body.length > 0 ? body : '(nothing)'}`
}

function compose(previousSummary: string | undefined, rendered: readonly string[], omitted: number): string {
  const sections: string[] = []
  if (previousSummary !== undefined && previousSummary.trim().length > 0) {
    sections.push(`<previous-summary>\n${previousSummary.trim()}\n</previous-summary>`)
  }
  const note = omitted > 0 ? `(${omitted} older message(s) left out to fit; rely on the previous summary for them)\n\n` : ''
  sections.push(`<conversation>\n${note}${rendered.join('\n\n')}\n</conversation>`)
  return sections.join('\n\n')
}

/** Start indexes of user turns (messages before the first user message form a turn too). */
function turnStarts(messages: readonly MessageWithParts[]): number[] {
  const starts: number[] = []
  messages.forEach((message, i) => {
    if (i === 0 || message.info.role === 'user') starts.push(i)
  })
  return starts
}

/** The summarizer's input, at the first degrade level that fits `budgetTokens`. */
export function renderSummaryInput(
  previousSummary: string | undefined,
  covered: readonly MessageWithParts[],
  budgetTokens: number,
  startAt: DegradeLevel = 'full',
): SummaryInput {
  const budget = Math.max(0, budgetTokens * CHARS_PER_TOKEN)
  const start = DEGRADE_ORDER.indexOf(startAt)
  for (const level of ['full', 'clipped', 'no-outputs'] as const) {
    if (DEGRADE_ORDER.indexOf(level) < start) continue
    const text = compose(previousSummary, covered.map((m) => renderMessage(m, RENDER[level])), 0)
    if (text.length <= budget) return { text, level, omittedMessages: 0 }
  }
  const rendered = covered.map((m) => renderMessage(m, RENDER['no-outputs']))
  const starts = turnStarts(covered)
  if (DEGRADE_ORDER.indexOf('fewer-turns') >= start) {
    for (let keep = Math.floor(starts.length / 2); keep >= 1; keep = Math.floor(keep / 2)) {
      const first = starts[starts.length - keep] ?? 0
      const text = compose(previousSummary, rendered.slice(first), first)
      if (text.length <= budget) return { text, level: 'fewer-turns', omittedMessages: first }
    }
  }
  // Last resort: the newest turn and the previous summary, cut to size.
  const last = starts.at(-1) ?? 0
  const summary = previousSummary === undefined ? undefined : clipMiddle(previousSummary, Math.floor(budget / 3))
  const text = clipMiddle(compose(summary, rendered.slice(last), last), budget)
  return { text, level: 'truncated', omittedMessages: last }
}
