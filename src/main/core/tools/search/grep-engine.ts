import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs'
import { join } from 'node:path'
import picomatch from 'picomatch'
import { ToolError } from '../errors'
import { looksBinary } from '../fs/text'
import { RG_COMMON_ARGS, runRipgrep } from './ripgrep'
import { walkProject } from './walk'

export interface GrepMatch {
  /** Project-relative path. */
  path: string
  line: number
  text: string
}

export interface GrepResult {
  matches: GrepMatch[]
  /** All matches found; `matches` holds at most the kept number of them. */
  total: number
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

function clip(text: string): string {
  return text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}…` : text
}

export async function grepWithRipgrep(rg: string, query: GrepQuery): Promise<GrepResult> {
  const args = [...RG_COMMON_ARGS, '--line-number', '--no-heading', '--with-filename', '--null', '--color', 'never']
  // rg's --glob would override .gitignore; a file type filters without doing so. Path globs are applied to the results.
  const byName = query.include !== undefined && !query.include.includes('/')
  if (query.include && byName) args.push('--type-add', `hotaruinclude:${query.include}`, '--type', 'hotaruinclude')
  const pathFilter = query.include && !byName ? picomatch(query.include, { dot: true }) : undefined
  args.push('--regexp', query.pattern, '--', query.searchRel || '.')
  const matches: GrepMatch[] = []
  let total = 0
  const run = await runRipgrep(rg, args, query.root, query.signal, (line) => {
    const nul = line.indexOf('\0')
    if (nul < 0) return
    if (pathFilter && !pathFilter(line.slice(0, nul).replace(/^\.\//, ''))) return
    total++
    if (matches.length >= query.keep) return
    const rest = line.slice(nul + 1)
    const colon = rest.indexOf(':')
    const path = line.slice(0, nul).replace(/^\.\//, '')
    matches.push({ path, line: Number(rest.slice(0, colon)), text: clip(rest.slice(colon + 1)) })
  })
  if (run.code === 2 && total === 0) throw new ToolError(`grep failed: ${run.stderr.trim() || 'ripgrep exited with an error'}`)
  return { matches, total }
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
  const searchFile = (rel: string, abs: string): void => {
    if (include && !include(rel)) return
    if (isBinaryFile(abs)) return
    let text: string
    try {
      text = readFileSync(abs, 'utf8')
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EACCES' || code === 'ENOENT' || code === 'EISDIR') return
      throw error
    }
    const lines = text.split('\n')
    for (let i = 0; i < lines.length; i++) {
      const line = (lines[i] as string).replace(/\r$/, '')
      if (!regex.test(line)) continue
      total++
      if (matches.length < query.keep) matches.push({ path: rel, line: i + 1, text: clip(line) })
    }
  }
  const start = query.searchRel ? join(query.root, query.searchRel) : query.root
  if (statSync(start).isFile()) {
    searchFile(query.searchRel, start)
    return { matches, total }
  }
  walkProject(query.root, query.searchRel, (entry) => {
    if (!entry.isDir) searchFile(entry.rel, entry.abs)
  }, query.signal)
  return { matches, total }
}

function isBinaryFile(abs: string): boolean {
  let fd: number
  try {
    fd = openSync(abs, 'r')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EACCES' || code === 'ENOENT') return true
    throw error
  }
  try {
    const buffer = Buffer.alloc(8000)
    const n = readSync(fd, buffer, 0, buffer.length, 0)
    return looksBinary(buffer.subarray(0, n))
  } finally {
    closeSync(fd)
  }
}
