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

export interface EditedFile {
  path: string
  additions: number
  deletions: number
  /** 1-based line of the first change in the file after the edit. */
  line: number
}

/** Lines added and removed, and where the first change is, from a unified diff. */
export function diffSummary(diff: string): Omit<EditedFile, 'path'> {
  let additions = 0
  let deletions = 0
  let line = 0
  let cursor = 0
  for (const raw of diff.split('\n')) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw)
    if (header) {
      cursor = Number(header[1])
      continue
    }
    if (cursor === 0 || raw.startsWith('+++') || raw.startsWith('---')) continue
    const mark = raw[0]
    if (mark === '+') additions++
    else if (mark === '-') deletions++
    if ((mark === '+' || mark === '-') && line === 0) line = Math.max(1, cursor)
    if (mark === ' ' || mark === '+') cursor++
  }
  return { additions, deletions, line: Math.max(1, line) }
}

/** The files an edit-family call changed, each with its counts (apply_patch: one per file). */
export function editedFiles(part: ToolPart, root: string): EditedFile[] {
  const meta = record(part.state.metadata)
  if (part.tool === 'apply_patch' && Array.isArray(meta.files)) {
    return meta.files.map(record).flatMap((f) => {
      const path = str(f.path)
      const diff = str(f.diff)
      return path && diff !== undefined ? [{ path: displayPath(path, root), ...diffSummary(diff) }] : []
    })
  }
  const path = str(meta.filePath) ?? str(record(part.state.input).filePath)
  if (!path) return []
  const diff = str(meta.diff)
  const summary = diff ? diffSummary(diff) : { additions: 0, deletions: 0, line: 1 }
  const counts = lineCounts(part)
  return [{ path: displayPath(path, root), ...summary, ...(counts ?? {}) }]
}
