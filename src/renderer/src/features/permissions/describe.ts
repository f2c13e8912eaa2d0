import type { PendingPermission } from '@shared/ipc/permission'

const HEADINGS: Record<string, string> = {
  bash: 'Run a shell command?',
  edit: 'Change files?',
  read: 'Read a protected file?',
  external_directory: 'Go outside the project?',
  task: 'Start a subagent?',
  webfetch: 'Fetch from the web?',
  websearch: 'Search the web?',
  doom_loop: 'The agent repeats the same call. Continue?',
}

export function headingOf(ask: PendingPermission): string {
  return HEADINGS[ask.permission] ?? `Allow ${ask.permission}?`
}

/** What the patterns are, in the ask's terms. */
export function patternsLabel(ask: PendingPermission): string {
  if (ask.permission === 'bash') return ask.patterns.length === 1 ? 'Command' : `Commands (${ask.patterns.length}, each checked)`
  if (ask.permission === 'edit' || ask.permission === 'read' || ask.permission === 'external_directory') return ask.patterns.length === 1 ? 'Path' : 'Paths'
  if (ask.permission === 'websearch') return ask.patterns.includes('*') ? 'Search' : ask.patterns.length === 1 ? 'Domain' : 'Domains'
  return 'For'
}

/** The unified diff an edit ask carries, if any. */
export function askDiff(ask: PendingPermission): string | null {
  const diff = ask.metadata?.diff
  return typeof diff === 'string' && diff.trim() ? diff : null
}

export type DiffLineKind = 'add' | 'del' | 'hunk' | 'meta' | 'ctx'

export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('Index:') || line.startsWith('===')) return 'meta'
  if (line.startsWith('@@')) return 'hunk'
  if (line.startsWith('+')) return 'add'
  if (line.startsWith('-')) return 'del'
  return 'ctx'
}
