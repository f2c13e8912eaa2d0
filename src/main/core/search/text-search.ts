import picomatch from 'picomatch'
import type { SearchFileResult, SearchQuery, SearchSummary } from '@shared/schema/search'
import { RG_COMMON_ARGS, runRipgrep } from '../tools/search/ripgrep'

/** A search stops here and says so: more results than anyone reads. */
export const MAX_SEARCH_MATCHES = 20_000
const MAX_LINE_CHARS = 500

interface RgText {
  text?: string
  bytes?: string
}

interface RgMatch {
  type: 'match'
  data: { path: RgText; line_number: number; lines: RgText; submatches: { start: number; end: number }[] }
}

function textOf(value: RgText): string {
  return value.text ?? Buffer.from(value.bytes ?? '', 'base64').toString('utf8')
}

/** rg reports byte offsets; the editor and the UI count UTF-16 units. */
function charOffset(line: string, byteOffset: number): number {
  return Buffer.from(line, 'utf8').subarray(0, byteOffset).toString('utf8').length
}

export function ripgrepArgs(query: SearchQuery): string[] {
  const args = [...RG_COMMON_ARGS, '--json']
  if (!query.regex) args.push('--fixed-strings')
  args.push(query.caseSensitive ? '--case-sensitive' : '--ignore-case')
  if (query.wholeWord) args.push('--word-regexp')
  // Exclusions can go to rg (a negated glob never brings back ignored files); inclusions are
  // applied to the results, since a positive --glob would override .gitignore.
  for (const glob of query.exclude ?? []) args.push('--glob', `!${glob}`)
  args.push('--regexp', query.query, '--', '.')
  return args
}

function includeFilter(globs: readonly string[] | undefined): ((path: string) => boolean) | null {
  if (!globs || globs.length === 0) return null
  const matchers = globs.map((g) => picomatch(g.includes('/') ? g : `**/${g}`, { dot: true }))
  return (path) => matchers.some((m) => m(path))
}

/**
 * Searches the project with ripgrep, handing results over file by file as
 * each file's matches are complete. Stops at the match cap or when `signal`
 * aborts (then `cancelled` is set).
 */
export async function searchText(
  rg: string,
  root: string,
  query: SearchQuery,
  signal: AbortSignal,
  onFile: (file: SearchFileResult) => void,
): Promise<SearchSummary> {
  const include = includeFilter(query.include)
  const own = new AbortController()
  const abort = (): void => own.abort()
  signal.addEventListener('abort', abort, { once: true })
  let files = 0
  let matches = 0
  let truncated = false
  let current: SearchFileResult | null = null
  const flush = (): void => {
    if (current && current.matches.length > 0) {
      files++
      onFile(current)
    }
    current = null
  }
  let run: { code: number | null; stderr: string }
  try {
    run = await runRipgrep(rg, ripgrepArgs(query), root, own.signal, (line, dropped) => {
      // A match event past the line cap is cut JSON; its line is longer than anything shown.
      if (truncated || dropped > 0 || !line.startsWith('{"type":"match"')) {
        if (line.startsWith('{"type":"end"')) flush()
        return
      }
      const event = JSON.parse(line) as RgMatch
      const path = textOf(event.data.path).replace(/^\.\//, '')
      if (include && !include(path)) return
      if (current?.path !== path) {
        flush()
        current = { path, matches: [] }
      }
      const full = textOf(event.data.lines).replace(/\r?\n$/, '')
      const text = full.length > MAX_LINE_CHARS ? full.slice(0, MAX_LINE_CHARS) : full
      const ranges = event.data.submatches
        .map((m) => [charOffset(full, m.start), charOffset(full, m.end)] as [number, number])
        .filter(([start]) => start < text.length)
      current.matches.push({ line: event.data.line_number, text, ranges })
      matches++
      if (matches >= MAX_SEARCH_MATCHES) {
        truncated = true
        flush()
        own.abort()
      }
    })
  } catch (error) {
    // Aborting kills rg; that is the cancel or the cap, not a failure.
    if ((error as Error).name !== 'AbortError') throw error
    run = { code: null, stderr: '' }
  } finally {
    signal.removeEventListener('abort', abort)
  }
  flush()
  const cancelled = signal.aborted
  if (run.code === 2 && matches === 0 && !cancelled) {
    return { files, matches, truncated, cancelled, error: run.stderr.trim().split('\n')[0] || 'the search failed' }
  }
  return { files, matches, truncated, cancelled }
}
