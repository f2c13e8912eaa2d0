import type { MessageWithParts, PartOf } from '@shared/schema/session'

/**
 * What a turn tells the model outside the system prompt. The system prompt and the tool
 * definitions stay byte-identical across the turns of a session (providers cache that prefix);
 * whatever changes between turns travels in the turn's own user message as `context` sections,
 * and only when the model has not already seen it in that form.
 */
export interface ContextSection {
  /** `date`, `git`, `memory` or `instructions:<path>`. */
  name: string
  /** The section's full current text; empty: it no longer exists (a removed instruction file, an emptied memory). */
  text: string
}

const INSTRUCTIONS = 'instructions:'
/** Late language-server diagnostics: news about one moment, not state a summary carries forward. */
export const DIAGNOSTICS_SECTION = 'diagnostics'

/** Sections that describe the project as it is (carried into a summary), unlike one-off news. */
export function isStateSection(name: string): boolean {
  return name === 'date' || name === 'git' || name === 'memory' || name.startsWith(INSTRUCTIONS)
}

export function instructionSection(path: string, content: string): ContextSection {
  return { name: `${INSTRUCTIONS}${path}`, text: content.trim() }
}

/** The latest text of each section as the model last saw it, oldest message first. */
export function sentSections(history: readonly MessageWithParts[]): Map<string, string> {
  const sent = new Map<string, string>()
  for (const message of history) {
    for (const part of message.parts) {
      if (part.type !== 'context') continue
      for (const section of part.sections) sent.set(section.name, section.text)
    }
  }
  return sent
}

/**
 * The sections of `current` the model has not seen with this text, plus an empty section for
 * every instruction file or memory it saw that is gone now.
 */
export function changedSections(current: readonly ContextSection[], sent: ReadonlyMap<string, string>): ContextSection[] {
  const changed = current.filter((section) => sent.get(section.name) !== section.text)
  const names = new Set(current.map((s) => s.name))
  for (const [name, text] of sent) {
    const removable = name === 'memory' || name.startsWith(INSTRUCTIONS)
    if (removable && text.length > 0 && !names.has(name)) changed.push({ name, text: '' })
  }
  return changed
}

function sectionText(section: ContextSection): string {
  if (section.name === 'date') return `Today's date: ${section.text}`
  if (section.name === 'git') return `Version control, as of this message: ${section.text}`
  if (section.name === 'memory') return section.text.length > 0 ? section.text : 'The project memory is empty now.'
  if (section.name === DIAGNOSTICS_SECTION) return `Language-server diagnostics that arrived after your last edits:\n${section.text}`
  if (section.name.startsWith(INSTRUCTIONS)) {
    const path = section.name.slice(INSTRUCTIONS.length)
    return section.text.length > 0 ? `Instructions from ${path}:\n${section.text}` : `${path} was removed: its instructions no longer apply.`
  }
  return section.text
}

/** The sections as the model reads them: one reminder block, never mistaken for the user's own words. */
export function contextText(sections: readonly ContextSection[]): string {
  return ['<system-reminder>', ...sections.map(sectionText), '</system-reminder>'].join('\n')
}

/** The `context` parts of a message, rendered for the model. */
export function contextParts(message: MessageWithParts): string[] {
  return message.parts
    .filter((p): p is PartOf<'context'> => p.type === 'context' && p.sections.length > 0)
    .map((p) => contextText(p.sections))
}
