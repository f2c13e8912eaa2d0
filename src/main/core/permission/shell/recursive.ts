import { readFileSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs'
import { under } from './expand'

/**
 * Recursive readers (`grep -r`, `rg`, `find -L`) reach files no argument names: the
 * walk below finds what they will read the way they walk — which symbolic links they
 * follow, whether they skip hidden or ignored entries — so that every file is checked
 * against `read` rules and every followed link that leaves the tree is checked as a
 * path (an ask naming its target).
 */
export interface RecursiveRead {
  /** Folders (or files) as written, relative to the working directory or absolute. */
  starts: string[]
  /** Follows every symbolic link it meets (`grep -R`, `rg -L`, `find -L`). */
  follow: boolean
  /** Reads file contents (grep, rg); `find` only lists names. */
  contents: boolean
  /** Skips hidden entries (rg without --hidden). */
  skipHidden: boolean
  /** Skips what a root `.gitignore` ignores in the simple forms understood here (rg in a git repository). */
  gitignore: boolean
  excludeDirs: RegExp[]
  excludeFiles: RegExp[]
  includeFiles: RegExp[]
}

/** Entries a walk may visit before it gives up (the line then asks, since what it reads is unknown). */
export const MAX_WALK_ENTRIES = 20_000

/** A basename glob (`*.min.js`, `node_modules`) as a regular expression. */
function globRegex(glob: string): RegExp {
  let source = ''
  for (const c of glob) {
    if (c === '*') source += '.*'
    else if (c === '?') source += '.'
    else source += c.replace(/[\\^$+.()|[\]{}/]/g, '\\$&')
  }
  return new RegExp(`^${source}$`, 's')
}

const GREP_VALUED = 'efmABCdD'
const RG_VALUED = 'ABCdEefgjmMrtT'

/** `--name=value` or `--name value` of a long option given in full or as a prefix of at least 3 letters. */
function longName(arg: string): string {
  return arg.slice(2).split('=', 1)[0] as string
}

function isLong(arg: string, name: string): boolean {
  const given = longName(arg)
  return given.length >= 3 && name.startsWith(given)
}

/** What `grep`, `rg` or `find` given `args` walks, or undefined when it reads no tree. */
export function recursiveRead(program: string, args: readonly string[], operands: readonly string[]): RecursiveRead | undefined {
  const base: RecursiveRead = {
    starts: [], follow: false, contents: true, skipHidden: false, gitignore: false,
    excludeDirs: [], excludeFiles: [], includeFiles: [],
  }
  if (program === 'find') return findRead(args, base)
  if (program !== 'grep' && program !== 'egrep' && program !== 'fgrep' && program !== 'rg') return undefined
  const rg = program === 'rg'
  const valued = rg ? RG_VALUED : GREP_VALUED
  let recursive = rg
  let unrestricted = 0
  let hidden = false
  let ignoreFiles = true
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') break
    if (arg.startsWith('--')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[i + 1]
      if (!rg && longName(arg) === 'exclude' && value !== undefined) base.excludeFiles.push(globRegex(value))
      else if (!rg && longName(arg) === 'include' && value !== undefined) base.includeFiles.push(globRegex(value))
      else if (!rg && (isLong(arg, 'recursive') || isLong(arg, 'dereference-recursive'))) {
        recursive = true
        if (isLong(arg, 'dereference-recursive')) base.follow = true
      } else if (!rg && isLong(arg, 'directories') && value === 'recurse') recursive = true
      else if (!rg && isLong(arg, 'exclude-dir') && value !== undefined) base.excludeDirs.push(globRegex(value))
      else if (rg && arg === '--follow') base.follow = true
      else if (rg && arg === '--no-follow') base.follow = false
      else if (rg && arg === '--hidden') hidden = true
      else if (rg && arg === '--unrestricted') unrestricted++
      else if (rg && /^--no-ignore(-vcs|-dot|-files|-parent|-exclude|-global)?$/.test(arg)) ignoreFiles = false
      continue
    }
    if (!arg.startsWith('-') || arg === '-') continue
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string
      if (valued.includes(letter)) {
        if (!rg && letter === 'd' && (arg.slice(j + 1) || args[i + 1]) === 'recurse') recursive = true
        if (j === arg.length - 1) i++
        break
      }
      if (!rg && letter === 'r') recursive = true
      if (!rg && letter === 'R') {
        recursive = true
        base.follow = true
      }
      if (rg && letter === 'L') base.follow = true
      if (rg && letter === '.') hidden = true
      if (rg && letter === 'u') unrestricted++
    }
  }
  if (!recursive) return undefined
  base.starts = operands.length > 0 ? [...operands] : ['.']
  if (rg) {
    base.skipHidden = !hidden && unrestricted < 2
    base.gitignore = ignoreFiles && unrestricted < 1
  }
  return base
}

const FIND_VALUED = /^-(name|iname|path|ipath|wholename|iwholename|regex|iregex|type|xtype|maxdepth|mindepth|[acm](time|min)|(a|c)?newer|newer[aBcmt][aBcmt]|size|perm|user|group|uid|gid|links|inum|samefile|lname|ilname|printf|regextype|fstype|context|used|fprint|fprint0|fprintf|fls)$/

/** `find -L` / `-follow` lists names through every link; without them it follows none. */
function findRead(args: readonly string[], base: RecursiveRead): RecursiveRead | undefined {
  let i = 0
  let follow = false
  while (i < args.length && /^-(H|L|P|O\d|D)$/.test(args[i] as string)) {
    if (args[i] === '-L') follow = true
    i += args[i] === '-D' ? 2 : 1
  }
  const starts: string[] = []
  while (i < args.length && !/^[-!(),]/.test(args[i] as string)) starts.push(args[i++] as string)
  for (; i < args.length; i++) {
    if (args[i] === '-follow') follow = true
    if (FIND_VALUED.test(args[i] as string)) i++
  }
  if (!follow) return undefined
  return { ...base, follow: true, contents: false, starts: starts.length > 0 ? starts : ['.'] }
}

export interface WalkResult {
  /** Files whose contents it reads, as real paths (no link in them). */
  files: string[]
  /** Files it reads through a followed link or a start point that may hold one: resolved by the caller. */
  linkedFiles: string[]
  /** Followed symbolic links (absolute), to be checked as paths: one leading out is an ask naming its target. */
  links: string[]
  /** False when the walk stopped at `MAX_WALK_ENTRIES` or met an unreadable folder: the rest is unknown. */
  complete: boolean
}

/** Simple root `.gitignore` entries (names, `/name`, `name/`) and none negated; anything else is not skipped. */
function ignoredNames(root: string): { anywhere: Set<string>; atRoot: Set<string> } {
  const empty = { anywhere: new Set<string>(), atRoot: new Set<string>() }
  let text: string
  try {
    statSync(under(root, '.git'))
    text = readFileSafe(under(root, '.gitignore'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return empty
    throw error
  }
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'))
  if (lines.some((l) => l.startsWith('!'))) return empty
  for (const line of lines) {
    const name = line.replace(/\/$/, '')
    if (/[*?[\\]/.test(name)) continue
    if (/^\/[^/]+$/.test(name)) empty.atRoot.add(name.slice(1))
    else if (!name.includes('/')) empty.anywhere.add(name)
  }
  return empty
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw error
  }
}

function list(dir: string): Dirent[] | null {
  try {
    return readdirSync(dir, { withFileTypes: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return []
    if (code === 'EACCES' || code === 'EPERM') return null
    throw error
  }
}

function realOf(path: string): string | null {
  try {
    return realpathSync(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'EACCES') return null
    throw error
  }
}

function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`)
}

/**
 * Walks what `read` reads from the absolute start points. `home` is the folder the line
 * runs in (resolved): a followed link whose target lies inside it is walked as well;
 * one leading elsewhere is reported and not walked (its ask names the target).
 */
export function walkRecursive(read: RecursiveRead, starts: readonly string[], home: string): WalkResult {
  const result: WalkResult = { files: [], linkedFiles: [], links: [], complete: true }
  const homeReal = realOf(home) ?? home
  const ignored = read.gitignore ? ignoredNames(homeReal) : { anywhere: new Set<string>(), atRoot: new Set<string>() }
  const seen = new Set<string>()
  let budget = MAX_WALK_ENTRIES
  const pending: string[] = []
  for (const start of starts) {
    const real = realOf(start)
    if (real === null) continue
    if (!statSync(real).isDirectory()) {
      if (read.contents) result.linkedFiles.push(start)
      continue
    }
    pending.push(start)
  }
  while (pending.length > 0) {
    const dir = pending.pop() as string
    const real = realOf(dir)
    if (real === null || seen.has(real)) continue
    seen.add(real)
    const entries = list(dir)
    if (entries === null) {
      result.complete = false
      continue
    }
    budget -= entries.length
    if (budget < 0) {
      result.complete = false
      return result
    }
    const atRoot = real === homeReal
    for (const entry of entries) {
      const name = entry.name
      if (read.skipHidden && name.startsWith('.')) continue
      if (ignored.anywhere.has(name) || (atRoot && ignored.atRoot.has(name))) continue
      const path = under(dir, name)
      if (entry.isSymbolicLink()) {
        if (!read.follow) continue
        result.links.push(path)
        const target = realOf(path)
        if (target === null) continue
        const targetIsDir = statSync(target).isDirectory()
        if (targetIsDir && isInside(target, homeReal)) pending.push(path)
        else if (!targetIsDir && read.contents && fileWanted(read, name)) result.linkedFiles.push(path)
        continue
      }
      if (entry.isDirectory()) {
        if (!read.excludeDirs.some((r) => r.test(name))) pending.push(path)
        continue
      }
      if (read.contents && fileWanted(read, name)) result.files.push(under(real, name))
    }
  }
  return result
}

function fileWanted(read: RecursiveRead, name: string): boolean {
  if (read.excludeFiles.some((r) => r.test(name))) return false
  return read.includeFiles.length === 0 || read.includeFiles.some((r) => r.test(name))
}
