import fuzzysort from 'fuzzysort'
import type { Suggestion } from '../../../components/SuggestList'
import { SLASH_COMMANDS } from './slash'

/** What the word at the caret asks for: a file (`@que`) or a command (`/com` at the start). */
export interface Trigger {
  kind: 'mention' | 'slash'
  /** Where the trigger character is. */
  start: number
  query: string
}

export function triggerAt(text: string, caret: number): Trigger | null {
  const before = text.slice(0, caret)
  const slash = /^\/(\S*)$/.exec(before)
  if (slash) return { kind: 'slash', start: 0, query: slash[1] ?? '' }
  const mention = /(^|\s)@([^\s@]*)$/.exec(before)
  if (mention) return { kind: 'mention', start: caret - (mention[2]?.length ?? 0) - 1, query: mention[2] ?? '' }
  return null
}

const MAX = 40

export function fileSuggestions(files: readonly string[], query: string, recent: readonly string[]): Suggestion[] {
  if (!query) {
    const seen = new Set<string>()
    const first = [...recent, ...files].filter((f) => !seen.has(f) && seen.add(f))
    return first.slice(0, MAX).map((path) => ({ id: path, label: path }))
  }
  return fuzzysort.go(query, files, { limit: MAX, threshold: 0.3 }).map((r) => ({ id: r.target, label: r.target, indexes: r.indexes }))
}

export function slashSuggestions(query: string): Suggestion[] {
  return SLASH_COMMANDS.filter((c) => c.name.startsWith(query.toLowerCase())).map((c) => ({ id: c.name, label: `/${c.name}`, detail: c.description }))
}
