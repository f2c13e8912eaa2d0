import { existsSync } from 'node:fs'
import { startProcess, type StartedProcess } from '../../process/spawn'
import { log } from '../../util/log'
import { resolvePackagedBinary } from '../../util/unpacked-binary'
import { RecordSplitter, type SplitField } from './record-splitter'

let cached: { rg: string | null } | undefined

/**
 * The ripgrep binary of `@vscode/ripgrep`'s platform package (outside `app.asar`
 * in a packaged app), or null when that package is missing; then the JS search is
 * used and the tool results say `engine: javascript`. Resolved here, on first use,
 * instead of importing `@vscode/ripgrep`, which throws at import time without it.
 */
export function bundledRipgrep(): string | null {
  cached ??= { rg: findRipgrep(process.platform, process.arch) }
  return cached.rg
}

export function findRipgrep(platform: NodeJS.Platform, arch: string): string | null {
  const binary = platform === 'win32' ? 'rg.exe' : 'rg'
  const rg = resolvePackagedBinary(`@vscode/ripgrep-${platform}-${arch}/bin/${binary}`)
  if (rg && existsSync(rg)) return rg
  log.warn(`[search] no ripgrep binary for ${platform}-${arch} (@vscode/ripgrep-${platform}-${arch}); grep and glob search in JavaScript`)
  return null
}

/** Flags shared by grep and glob: hidden files included, .gitignore honoured even outside a git repo, .git skipped. */
export const RG_COMMON_ARGS = ['--no-config', '--hidden', '--no-require-git', '--glob', '!.git', '--glob', '!node_modules']

/** A file or folder rg could not search, from its stderr (`rg: ./x: Permission denied (os error 13)`). */
export interface SearchProblem {
  /** As rg printed it, relative to the search's working directory. */
  path: string
  reason: string
}

export interface RipgrepRun {
  code: number | null
  /** The start of stderr (64 KiB at most). */
  stderr: string
  /** The first `MAX_PROBLEMS` paths rg could not read. */
  problems: SearchProblem[]
  /** How many there were in all. */
  problemCount: number
}

const MAX_PROBLEMS = 50
const MAX_STDERR = 64 * 1024
/** A line of rg's generic (JSON) output past this is cut; its consumer learns so from `dropped`. */
const MAX_LINE_BYTES = 8 * 1024 * 1024

export interface RecordOptions {
  /** The bytes that end each field of a record, in order (cycled). */
  separators: readonly number[]
  /** Bytes kept per field (one cap, or one per separator); the rest is counted in `dropped`. */
  maxFieldBytes: number | readonly number[]
}

/**
 * Runs rg and hands each output record to `onRecord` as it arrives, split at bytes (not
 * decoded first, so names that are not UTF-8 survive) with each field capped: memory stays
 * bounded whatever the length of a line. Exit code 1 means "no match"; 2 means errors,
 * possibly with results; the paths rg could not read come back in `problems`.
 */
export function runRipgrepRecords(
  rg: string,
  args: string[],
  cwd: string,
  signal: AbortSignal,
  options: RecordOptions,
  onRecord: (fields: SplitField[]) => void,
): Promise<RipgrepRun> {
  return startProcess(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal }).then((child) => collectRipgrep(child, options, onRecord))
}

/** Line by line (rg's JSON output); a line longer than 8 MiB arrives cut, with `dropped` > 0. */
export function runRipgrep(
  rg: string,
  args: string[],
  cwd: string,
  signal: AbortSignal,
  onLine: (line: string, dropped: number) => void,
): Promise<RipgrepRun> {
  return runRipgrepRecords(rg, args, cwd, signal, { separators: [0x0a], maxFieldBytes: MAX_LINE_BYTES }, (fields) => {
    const field = fields[0] as SplitField
    onLine(field.bytes.toString('utf8'), field.dropped)
  })
}

const PROBLEM_LINE = /^rg: (.+): ([^:]+?)(?: \(os error \d+\))?$/

function collectRipgrep(child: StartedProcess, options: RecordOptions, onRecord: (fields: SplitField[]) => void): Promise<RipgrepRun> {
  return new Promise((resolve, reject) => {
    let stderr = ''
    const problems: SearchProblem[] = []
    let problemCount = 0
    const out = new RecordSplitter(options.separators, options.maxFieldBytes, onRecord)
    const err = new RecordSplitter([0x0a], 4096, (fields) => {
      const line = (fields[0] as SplitField).bytes.toString('utf8')
      if (stderr.length < MAX_STDERR) stderr += `${line}\n`
      const problem = PROBLEM_LINE.exec(line)
      if (!problem) return
      problemCount++
      if (problems.length < MAX_PROBLEMS) problems.push({ path: (problem[1] as string).replace(/^\.\//, ''), reason: problem[2] as string })
    })
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', reject)
    child.on('close', (code: number | null) => {
      out.end()
      err.end()
      resolve({ code, stderr, problems, problemCount })
    })
  })
}
