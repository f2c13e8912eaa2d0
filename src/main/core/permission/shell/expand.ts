import { readFileSync, readdirSync } from 'node:fs'
import { homedir } from 'node:os'

/** One character of a word after quote removal, and whether it was quoted (quoted characters never expand). */
export interface WordChar {
  c: string
  q: boolean
}

/** More words than this from one argument: treated as not statically known. */
const MAX_EXPANSIONS = 1024

/**
 * Brace expansion as bash does it before anything else: `{a,b}`, nested lists and
 * `{1..5}` / `{a..e}` sequences (with an optional step). Quoted braces and commas
 * are literal; a `{…}` without a top-level comma or sequence stays as written.
 * Returns null when the result would be too large to check.
 */
export function expandBraces(chars: WordChar[]): WordChar[][] | null {
  const out: WordChar[][] = []
  const pending: WordChar[][] = [chars]
  while (pending.length > 0) {
    const word = pending.pop() as WordChar[]
    const split = firstBrace(word)
    if (!split) {
      out.push(word)
      if (out.length > MAX_EXPANSIONS) return null
      continue
    }
    for (const middle of split.alternatives.reverse()) pending.push([...split.before, ...middle, ...split.after])
    if (pending.length > MAX_EXPANSIONS) return null
  }
  return out
}

interface BraceSplit {
  before: WordChar[]
  alternatives: WordChar[][]
  after: WordChar[]
}

function firstBrace(word: WordChar[]): BraceSplit | undefined {
  for (let i = 0; i < word.length; i++) {
    const open = word[i] as WordChar
    if (open.q || open.c !== '{') continue
    let depth = 0
    const commas: number[] = []
    let end = -1
    for (let j = i + 1; j < word.length; j++) {
      const ch = word[j] as WordChar
      if (ch.q) continue
      if (ch.c === '{') depth++
      else if (ch.c === '}') {
        if (depth === 0) {
          end = j
          break
        }
        depth--
      } else if (ch.c === ',' && depth === 0) commas.push(j)
    }
    if (end < 0) continue
    const before = word.slice(0, i)
    const after = word.slice(end + 1)
    if (commas.length > 0) {
      const bounds = [i, ...commas, end]
      const alternatives = bounds.slice(1).map((b, k) => word.slice((bounds[k] as number) + 1, b))
      return { before, alternatives, after }
    }
    const inner = word.slice(i + 1, end)
    const sequence = inner.some((ch) => ch.q) ? undefined : expandSequence(inner.map((ch) => ch.c).join(''))
    if (sequence) return { before, alternatives: sequence.map((s) => [...s].map((c) => ({ c, q: true }))), after }
  }
  return undefined
}

function expandSequence(text: string): string[] | undefined {
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(text)
  const alpha = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/.exec(text)
  const match = numeric ?? alpha
  if (!match) return undefined
  const from = numeric ? Number(match[1]) : (match[1] as string).charCodeAt(0)
  const to = numeric ? Number(match[2]) : (match[2] as string).charCodeAt(0)
  const step = Math.abs(Number(match[3] ?? 1)) || 1
  if (Math.abs(to - from) / step > MAX_EXPANSIONS) return [text, ...Array<string>(MAX_EXPANSIONS).fill('')]
  const values: string[] = []
  const dir = to >= from ? 1 : -1
  for (let v = from; dir > 0 ? v <= to : v >= to; v += dir * step) values.push(numeric ? String(v) : String.fromCharCode(v))
  return values
}

let passwd: Map<string, string> | undefined

/** Home directories of local users, from /etc/passwd (other user databases are not consulted). */
function homeOf(user: string): string | undefined {
  if (!passwd) {
    passwd = new Map()
    try {
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const fields = line.split(':')
        if (fields.length >= 6 && fields[0]) passwd.set(fields[0], fields[5] as string)
      }
    } catch (error) {
      // No local user list (e.g. on Windows): every `~user` stays unknown, which asks.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return passwd.get(user)
}

/**
 * Tilde expansion of a word's leading unquoted `~…/`: `~` (home), `~+` (the working
 * directory), `~user`. Returns null when the prefix names something not known
 * statically (`~-`, the previous directory; a user not in the local user list).
 */
export function expandTilde(chars: WordChar[], cwd: string): string | null {
  const text = chars.map((ch) => ch.c).join('')
  if (chars[0]?.c !== '~' || chars[0].q) return text
  let end = chars.findIndex((ch) => ch.c === '/')
  if (end < 0) end = chars.length
  if (chars.slice(0, end).some((ch) => ch.q)) return text
  const name = text.slice(1, end)
  const rest = text.slice(end)
  if (name === '') return homedir() + rest
  if (name === '+') return cwd + rest
  if (name === '-' || /^[+-]?\d+$/.test(name)) return null
  const home = homeOf(name)
  return home === undefined ? null : home + rest
}

/** True when the word has an unquoted glob character (bash then matches it against the file system). */
export function hasGlob(chars: WordChar[]): boolean {
  return chars.some((ch) => !ch.q && (ch.c === '*' || ch.c === '?' || ch.c === '['))
}

/** A path component pattern as a regular expression; quoted characters match themselves. */
function componentRegex(chars: WordChar[]): RegExp {
  let source = ''
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as WordChar
    if (!ch.q && ch.c === '*') source += '.*'
    else if (!ch.q && ch.c === '?') source += '.'
    else if (!ch.q && ch.c === '[') {
      const close = chars.findIndex((x, j) => j > i + 1 && !x.q && x.c === ']')
      if (close < 0) {
        source += '\\['
        continue
      }
      let body = chars.slice(i + 1, close).map((x) => x.c).join('')
      if (body.startsWith('!')) body = `^${body.slice(1)}`
      source += `[${body.replace(/\\/g, '\\\\')}]`
      i = close
    } else source += ch.c.replace(/[\\^$+*?.()|[\]{}/]/g, '\\$&')
  }
  // A leading dot must be matched explicitly, as bash does without `dotglob`.
  const dotRule = chars[0]?.c === '.' ? '' : '(?!\\.)'
  return new RegExp(`^${dotRule}${source}$`, 's')
}

/** Joins without folding `..`: a `link/..` must be resolved against the link's target later. */
export function under(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return []
    throw error
  }
}

/**
 * Pathname expansion against the real tree, one component at a time so that
 * symlinked directories are followed exactly as bash follows them. Returns the
 * matches as absolute paths, or the word unchanged (bash's default when nothing
 * matches); null when there are too many matches to check. A tilde-expanded
 * prefix is passed in as quoted characters.
 */
export function expandGlob(chars: WordChar[], cwd: string): string[] | null {
  const absolute = chars[0]?.c === '/'
  const components: WordChar[][] = [[]]
  for (const ch of chars) {
    if (ch.c === '/') components.push([])
    else (components.at(-1) as WordChar[]).push(ch)
  }
  let bases = [absolute ? '/' : cwd]
  for (const component of components) {
    if (component.length === 0) continue
    if (!hasGlob(component)) {
      const name = component.map((ch) => ch.c).join('')
      bases = bases.map((b) => under(b, name))
      continue
    }
    const regex = componentRegex(component)
    bases = bases.flatMap((b) => listDir(b).filter((entry) => regex.test(entry)).sort().map((entry) => under(b, entry)))
    if (bases.length > MAX_EXPANSIONS) return null
    if (bases.length === 0) break
  }
  if (bases.length === 0) {
    const literal = chars.map((ch) => ch.c).join('')
    return [absolute ? literal : under(cwd, literal)]
  }
  return bases
}
