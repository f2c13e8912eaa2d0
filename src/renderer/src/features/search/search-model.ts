import type { SearchFileResult, SearchQuery, SearchSummary } from '@shared/schema/search'

/** One find-in-files run as the panel shows it, built from the streamed events. */
export interface SearchRun {
  searchId: string
  query: SearchQuery
  files: SearchFileResult[]
  matches: number
  status: 'running' | 'done' | 'cancelled' | 'error'
  truncated: boolean
  error?: string
}

export type SearchEvent =
  | { type: 'start'; searchId: string; query: SearchQuery }
  | { type: 'results'; searchId: string; files: SearchFileResult[] }
  | { type: 'done'; summary: SearchSummary & { searchId: string } }
  | { type: 'cancel'; searchId: string }
  | { type: 'failed'; searchId: string; error: string }

/**
 * Applies one event; events of another (older) search are ignored, so a late
 * batch of a replaced search never mixes into the new results.
 */
export function searchReducer(run: SearchRun | null, event: SearchEvent): SearchRun | null {
  if (event.type === 'start') return { searchId: event.searchId, query: event.query, files: [], matches: 0, status: 'running', truncated: false }
  const id = event.type === 'done' ? event.summary.searchId : event.searchId
  if (!run || run.searchId !== id) return run
  switch (event.type) {
    case 'results':
      if (run.status !== 'running') return run
      return { ...run, files: [...run.files, ...event.files], matches: run.matches + event.files.reduce((n, f) => n + f.matches.length, 0) }
    case 'done': {
      const s = event.summary
      const status = s.error ? 'error' : s.cancelled ? 'cancelled' : run.status === 'cancelled' ? 'cancelled' : 'done'
      return { ...run, status, truncated: s.truncated, ...(s.error ? { error: s.error } : {}) }
    }
    case 'cancel':
      return run.status === 'running' ? { ...run, status: 'cancelled' } : run
    case 'failed':
      return { ...run, status: 'error', error: event.error }
  }
}

/** "12 results in 3 files" and how the run ended. */
export function searchSummary(run: SearchRun): string {
  const counts = `${run.matches} result${run.matches === 1 ? '' : 's'} in ${run.files.length} file${run.files.length === 1 ? '' : 's'}`
  if (run.status === 'running') return `Searching… ${counts}`
  if (run.status === 'error') return run.error ?? 'The search failed'
  if (run.status === 'cancelled') return `Cancelled: ${counts}`
  if (run.matches === 0) return 'No results'
  return run.truncated ? `${counts} (stopped at the limit; narrow the search)` : counts
}

/** "src/**, *.ts" → ['src/**', '*.ts'] */
export function parseGlobs(text: string): string[] {
  return text
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '')
}

/**
 * Where ↑/↓ moves focus among `count` result rows from `current` (-1: the search box).
 * Returns -1 for "back to the search box"; the last row stays put on ↓.
 */
export function stepResult(count: number, current: number, key: 'ArrowDown' | 'ArrowUp'): number {
  if (count === 0) return -1
  if (key === 'ArrowDown') return Math.min(current + 1, count - 1)
  return Math.max(current - 1, -1)
}
