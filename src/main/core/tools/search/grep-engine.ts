import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs'
import { join } from 'node:path'
import picomatch from 'picomatch'
import { ToolError } from '../errors'
import { looksBinary } from '../fs/text'
import { displayPath, displayPathBytes } from './path-display'
import { RG_COMMON_ARGS, runRipgrepRecords, type SearchProblem } from './ripgrep'
import type { SplitField } from './record-splitter'
import { walkProject } from './walk'

export interface GrepMatch {
  /** Project-relative path. */
  path: string
  /** The path as printed: quoted when it holds a newline, other control characters or non-UTF-8 bytes. */
  shown: string
  line: number
  text: string
  /** The line's full length in bytes when it was longer than what is shown and that length is known. */
  lineBytes?: number
  /** The line was longer than rg prints (`MAX_LINE_BYTES`): only its start is shown. */
  long?: boolean
}

export interface GrepResult {
  matches: GrepMatch[]
  /** All matches found; `matches` holds at most the kept number of them. */
  total: number
  /** Files and folders that could not be searched (the first ones), and how many in all. */
  unreadable: SearchProblem[]
  unreadableCount: number
}

export interface GrepQuery {
  root: string
  /** Project-relative directory or file to search ('' = the root). */
  searchRel: string
  pattern: string
  include?: string
  /** How many matches to keep (the rest are only counted). */
  keep: number
  signal: AbortSignal
}

const MAX_LINE = 2000
/** Bytes of a matching line read from rg: enough for `MAX_LINE` characters of any script, whatever the line's length. */
const MAX_LINE_BYTES = MAX_LINE * 4
const MAX_PATH_BYTES = 64 * 1024
const MAX_PROBLEMS = 50

function clip(text: string): string {
  return text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}…` : text
}

/** What rg's `--max-columns-preview` puts after the start of a line longer than `--max-columns`. */
const RG_OMITTED = ' [... omitted end of long line]'

/** A matching line as rg printed it (`12:text`), cut to what is shown. */
function parseLine(field: SplitField): { line: number; text: string; lineBytes?: number; long?: boolean } {
  const raw = field.bytes.toString('utf8')
  const colon = raw.indexOf(':')
  const text = raw.slice(colon + 1).replace(/\r$/, '')
  const line = Number(raw.slice(0, colon))
  if (text.endsWith(RG_OMITTED)) return { line, text: `${text.slice(0, Math.min(MAX_LINE, text.length - RG_OMITTED.length))}…`, long: true }
  if (field.dropped === 0) return { line, text: clip(text) }
  // The kept bytes may end inside a character; the clip drops that tail.
  const lineBytes = field.bytes.length - colon - 1 + field.dropped
  return { line, text: `${text.slice(0, Math.min(MAX_LINE, text.length - 1))}…`, lineBytes }
}

export async function grepWithRipgrep(rg: string, query: GrepQuery): Promise<GrepResult> {
  // rg prints at most the start of a long line (the rest never crosses the pipe); the splitter's cap guards the same here.
  const columns = ['--max-columns', String(MAX_LINE_BYTES), '--max-columns-preview']
  const args = [...RG_COMMON_ARGS, ...columns, '--line-number', '--no-heading', '--with-filename', '--null', '--color', 'never']
  // rg's --glob would override .gitignore; a file type filters without doing so. Path globs are applied to the results.
  const byName = query.include !== undefined && !query.include.includes('/')
  if (query.include && byName) args.push('--type-add', `hotaruinclude:${query.include}`, '--type', 'hotaruinclude')
  const pathFilter = query.include && !byName ? picomatch(query.include, { dot: true }) : undefined
  args.push('--regexp', query.pattern, '--', query.searchRel || '.')
  const matches: GrepMatch[] = []
  let total = 0
  // `path\0line\n`: the path ends at NUL (it may hold a newline), the line at the newline.
  const options = { separators: [0x00, 0x0a], maxFieldBytes: [MAX_PATH_BYTES, MAX_LINE_BYTES + 64] }
  const run = await runRipgrepRecords(rg, args, query.root, query.signal, options, (fields) => {
    const [pathField, lineField] = fields
    if (!pathField || !lineField) return
    const name = displayPathBytes(pathField.bytes.subarray(pathField.bytes.subarray(0, 2).toString() === './' ? 2 : 0))
    if (pathFilter && !pathFilter(name.path)) return
    total++
    if (matches.length >= query.keep) return
    matches.push({ path: name.path, shown: name.text, ...parseLine(lineField) })
  })
  const failedOnly = run.code === 2 && total === 0 && run.problemCount === 0
  if (failedOnly) throw new ToolError(`grep failed: ${run.stderr.trim() || 'ripgrep exited with an error'}`)
  return { matches, total, unreadable: run.problems, unreadableCount: run.problemCount }
}

/** The same search in JavaScript, for systems without the ripgrep binary. Patterns use JavaScript regex syntax. */
export function grepWithJs(query: GrepQuery): GrepResult {
  let regex: RegExp
  try {
    regex = new RegExp(query.pattern)
  } catch (error) {
    throw new ToolError(`pattern is not a valid regular expression: ${(error as Error).message}`)
  }
  const include = query.include ? picomatch(query.include, { dot: true, basename: !query.include.includes('/') }) : undefined
  const matches: GrepMatch[] = []
  let total = 0
  const unreadable: SearchProblem[] = []
  let unreadableCount = 0
  const cannotRead = (rel: string, error: unknown): void => {
    unreadableCount++
    if (unreadable.length < MAX_PROBLEMS) unreadable.push({ path: rel, reason: reasonOf(error) })
  }
  const searchFile = (rel: string, abs: string): void => {
    if (include && !include(rel)) return
    let text: string
    try {
      if (isBinaryFile(abs)) return
      text = readFileSync(abs, 'utf8')
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // A file deleted while the search ran is not a problem to report; one that cannot be read is.
      if (code === 'ENOENT' || code === 'EISDIR') return
      if (code === 'EACCES' || code === 'EPERM' || code === 'EIO') return cannotRead(rel, error)
      throw error
    }
    const lines = text.split('\n')
    for (let i = 0; i < lines.length; i++) {
      const line = (lines[i] as string).replace(/\r$/, '')
      if (!regex.test(line)) continue
      total++
      if (matches.length < query.keep) matches.push({ path: rel, shown: displayPath(rel).text, line: i + 1, text: clip(line) })
    }
  }
  const start = query.searchRel ? join(query.root, query.searchRel) : query.root
  if (statSync(start).isFile()) {
    searchFile(query.searchRel, start)
    return { matches, total, unreadable, unreadableCount }
  }
  walkProject(query.root, query.searchRel, (entry) => {
    if (!entry.isDir) searchFile(entry.rel, entry.abs)
  }, query.signal, (rel, error) => cannotRead(rel, error))
  return { matches, total, unreadable, unreadableCount }
}

/** "Permission denied" for EACCES, as rg says it. */
export function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM') return 'Permission denied'
  if (code === 'EIO') return 'Input/output error'
  return (error as Error).message
}

/** Throws when the file cannot be opened (the caller reports it). */
function isBinaryFile(abs: string): boolean {
  const fd = openSync(abs, 'r')
  try {
    const buffer = Buffer.alloc(8000)
    const n = readSync(fd, buffer, 0, buffer.length, 0)
    return looksBinary(buffer.subarray(0, n))
  } finally {
    closeSync(fd)
  }
}
