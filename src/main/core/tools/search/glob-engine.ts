import { existsSync } from 'node:fs'
import { join } from 'node:path'
import picomatch from 'picomatch'
import { ToolError } from '../errors'
import { reasonOf } from './grep-engine'
import { RG_COMMON_ARGS, runRipgrepRecords, type SearchProblem } from './ripgrep'
import { walkProject } from './walk'

export interface GlobResult {
  /** Paths relative to the search directory. */
  files: string[]
  /** Folders that could not be listed (the first ones), and how many in all. */
  unreadable: SearchProblem[]
  unreadableCount: number
}

const MAX_PROBLEMS = 50

export interface GlobQuery {
  root: string
  searchRel: string
  pattern: string
  signal: AbortSignal
}

/**
 * The directory a path pattern cannot leave (`src/app` for `src/app/**\/*.ts`), so
 * only that subtree is listed. Empty for name patterns and patterns starting with a glob.
 */
function staticBase(pattern: string): string {
  if (!pattern.includes('/')) return ''
  const base = picomatch.scan(pattern).base
  return base.includes('..') ? '' : base.replace(/\/+$/, '')
}

function joinRel(a: string, b: string): string {
  return a && b ? `${a}/${b}` : a || b
}

/** The rg command line glob runs (exported so the benchmark compares against exactly this). */
export function globRipgrepArgs(pattern: string): string[] {
  const byName = !pattern.includes('/')
  const typeFilter = byName ? ['--type-add', `hotaruglob:${pattern}`, '--type', 'hotaruglob'] : []
  return [...RG_COMMON_ARGS, '--files', '--null', ...typeFilter, staticBase(pattern) || '.']
}

/**
 * Files under `searchRel` matching `pattern`, as paths relative to `searchRel`, via
 * `rg --files`. rg's own `--glob` would override .gitignore (a whitelisted ignored
 * file shows up), so a name pattern becomes a file type, which does not, and a path
 * pattern is applied here to rg's listing of the pattern's static base directory.
 */
export async function globWithRipgrep(rg: string, query: GlobQuery): Promise<GlobResult> {
  const files: string[] = []
  const byName = !query.pattern.includes('/')
  const base = staticBase(query.pattern)
  const cwd = join(query.root, query.searchRel)
  if (base && !existsSync(join(cwd, base))) return { files, unreadable: [], unreadableCount: 0 }
  const args = globRipgrepArgs(query.pattern)
  const matcher = byName ? undefined : picomatch(query.pattern, { dot: true })
  // NUL-separated: a name may hold a newline.
  const run = await runRipgrepRecords(rg, args, cwd, query.signal, { separators: [0], maxFieldBytes: 64 * 1024 }, (fields) => {
    const line = fields[0]?.bytes.toString('utf8') ?? ''
    if (!line) return
    const rel = line.startsWith('./') ? line.slice(2) : line
    if (!matcher || matcher(rel)) files.push(rel)
  })
  if (run.code === 2 && files.length === 0 && run.problemCount === 0) throw new ToolError(`glob failed: ${run.stderr.trim() || 'ripgrep exited with an error'}`)
  return { files, unreadable: run.problems, unreadableCount: run.problemCount }
}

/**
 * The same in JavaScript. As with rg's globs, a pattern without `/` matches file
 * names at any depth (`*.ts`), one with `/` matches paths from the search directory.
 */
export function globWithJs(query: GlobQuery): GlobResult {
  const matcher = picomatch(query.pattern, { dot: true, basename: !query.pattern.includes('/') })
  const prefix = query.searchRel ? `${query.searchRel}/` : ''
  const start = joinRel(query.searchRel, staticBase(query.pattern))
  const result: GlobResult = { files: [], unreadable: [], unreadableCount: 0 }
  if (!existsSync(join(query.root, start))) return result
  walkProject(query.root, start, (entry) => {
    if (entry.isDir) return
    const rel = entry.rel.slice(prefix.length)
    if (matcher(rel)) result.files.push(rel)
  }, query.signal, (rel, error) => {
    result.unreadableCount++
    // Relative to the search directory, as rg reports it.
    const path = rel.startsWith(prefix) ? rel.slice(prefix.length) : rel
    if (result.unreadable.length < MAX_PROBLEMS) result.unreadable.push({ path, reason: reasonOf(error) })
  })
  return result
}
