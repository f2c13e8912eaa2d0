import { HookEventName, type HookFailure, type PartOf } from '@shared/schema/session'
import { relativeInside } from '../../../lib/paths'

export type ToolPart = PartOf<'tool'>

export const EDIT_TOOLS = new Set(['edit', 'write', 'multiedit', 'apply_patch'])

export function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** A path as the user knows it: relative to the project when it lies inside. */
export function displayPath(path: string, root: string): string {
  if (!root) return path
  return relativeInside(root, path) ?? path
}

/** The one argument that says what a call does (its command, file, pattern, URL…). */
export function keyArgument(part: ToolPart, root: string): string {
  const input = record(part.state.input)
  const first = (...keys: string[]): string | undefined => keys.map((k) => str(input[k])).find((v) => v !== undefined)
  switch (part.tool) {
    case 'bash':
      return first('command') ?? ''
    case 'read':
    case 'write':
    case 'edit':
    case 'multiedit': {
      const path = first('filePath') ?? str(record(part.state.metadata).filePath)
      return path ? displayPath(path, root) : ''
    }
    case 'apply_patch':
      return part.state.title ?? ''
    case 'glob':
    case 'grep': {
      const where = first('path', 'include')
      return `${first('pattern') ?? ''}${where ? `  in ${where}` : ''}`
    }
    case 'list':
      return first('path') ?? '.'
    case 'webfetch':
      return first('url') ?? ''
    case 'websearch': {
      const domains = input.allowed_domains
      const where = Array.isArray(domains) && domains.length > 0 ? `  on ${domains.filter((d) => typeof d === 'string').join(', ')}` : ''
      return `${first('query') ?? ''}${where}`
    }
    case 'task':
      return `${first('description') ?? ''}${first('subagent_type') ? ` (${first('subagent_type')})` : ''}`
    case 'todowrite': {
      const todos = input.todos
      return Array.isArray(todos) ? `${todos.length} todos` : ''
    }
    case 'question': {
      const questions = input.questions
      return Array.isArray(questions) ? (str(record(questions[0]).question) ?? '') : ''
    }
    case 'bash_output':
    case 'bash_kill':
      return first('id') ?? ''
    default:
      return part.state.title ?? Object.values(input).map(str).find((v) => v !== undefined) ?? ''
  }
}

/** +added / −removed lines of an edit call, when the tool reported them. */
export function lineCounts(part: ToolPart): { additions: number; deletions: number } | null {
  const meta = record(part.state.metadata)
  const additions = num(meta.additions)
  const deletions = num(meta.deletions)
  return additions === undefined || deletions === undefined ? null : { additions, deletions }
}

export interface FileDiffView {
  path: string
  original: string
  modified: string
  /** Lines shown, to size the diff editor. */
  lines: number
}

/**
 * The before/after text of the region a unified diff covers (the tools send a
 * window around the change, not whole files). Hunks after the first are
 * separated by a "⋯" line on both sides.
 */
export function fromUnifiedDiff(diff: string, path: string): FileDiffView {
  const original: string[] = []
  const modified: string[] = []
  let inHunk = false
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) {
      if (inHunk) {
        original.push('⋯')
        modified.push('⋯')
      }
      inHunk = true
      continue
    }
    if (!inHunk) continue
    const mark = line[0]
    const text = line.slice(1)
    if (mark === ' ') {
      original.push(text)
      modified.push(text)
    } else if (mark === '-') original.push(text)
    else if (mark === '+') modified.push(text)
  }
  // Every line keeps its newline: a side with no lines (a new or a deleted file) is then '' and the
  // editor's one empty line on that side lines up with the other side's last line instead of
  // showing as a phantom changed line 1.
  const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('')
  return { path, original: text(original), modified: text(modified), lines: Math.max(original.length, modified.length) }
}

/** The file diffs an edit-family call reported (apply_patch: one per file). */
export function editDiffs(part: ToolPart, root: string): FileDiffView[] {
  const meta = record(part.state.metadata)
  const files = meta.files
  if (part.tool === 'apply_patch' && Array.isArray(files)) {
    return files
      .map(record)
      .filter((f) => typeof f.diff === 'string')
      .map((f) => fromUnifiedDiff(f.diff as string, str(f.path) ?? ''))
  }
  const diff = str(meta.diff)
  if (!diff) return []
  const path = str(meta.filePath) ?? str(record(part.state.input).filePath) ?? ''
  return [fromUnifiedDiff(diff, displayPath(path, root))]
}

/** Hooks of the call that failed (`metadata.hookFailures`, each with its event). */
export function toolHookFailures(part: ToolPart): Array<HookFailure & { event?: HookEventName }> {
  const list = record(part.state.metadata).hookFailures
  if (!Array.isArray(list)) return []
  return list.map(record).flatMap((f) => {
    const event = HookEventName.safeParse(f.event)
    const command = str(f.command)
    const error = str(f.error)
    return command !== undefined && error !== undefined ? [{ command, error, ...(event.success ? { event: event.data } : {}) }] : []
  })
}
