/**
 * The plain `key: value` reader for frontmatter that is not valid YAML (see
 * `frontmatter.ts`): the values are taken as written, so a description with an
 * unquoted `: ` or ` #` in it reads as its whole text. Anything else is an error with
 * its line number rather than a guess.
 *
 * Accepted, between the fences:
 * - `key: value` (the rest of the line, trimmed; no inline comments),
 * - `key: "json string"` and `key: 'single quoted'` (`''` is a quote),
 * - `key:` followed by indented `sub: value` lines (one level; a value there may be quoted too),
 * - blank lines and lines starting with `#`.
 * Lists, block scalars (`|`, `>`) and deeper nesting are refused.
 */

export type LineValue = string | Record<string, string>

export class FrontmatterError extends Error {
  constructor(message: string, readonly line?: number) {
    super(line === undefined ? message : `line ${line}: ${message}`)
    this.name = 'FrontmatterError'
  }
}

const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/
const NESTED = /^[ ]+("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s:"'#][^:]*?)[ \t]*:(?:[ \t]+(.*))?$/

/** Parses a scalar as written after `key:`; `line` is the 1-based line for errors. */
export function parseScalar(raw: string, line: number): string {
  const text = raw.trim()
  if (text.startsWith('"')) {
    // A double-quoted YAML string is, for the escapes people use, a JSON string.
    try {
      const value: unknown = JSON.parse(text)
      if (typeof value === 'string') return value
    } catch (error) {
      throw new FrontmatterError(`invalid double-quoted string (${(error as Error).message})`, line)
    }
    throw new FrontmatterError('invalid double-quoted string', line)
  }
  if (text.startsWith("'")) {
    const match = /^'((?:[^']|'')*)'$/.exec(text)
    if (!match) throw new FrontmatterError('invalid single-quoted string (a quote inside is written as \'\')', line)
    return (match[1] ?? '').replace(/''/g, "'")
  }
  if (text.startsWith('|') || text.startsWith('>')) {
    throw new FrontmatterError('multi-line values (| or >) are not supported: write the value on one line, quoted if needed', line)
  }
  return text
}

function unquoteKey(raw: string, line: number): string {
  return raw.startsWith('"') || raw.startsWith("'") ? parseScalar(raw, line) : raw.trim()
}

/**
 * Reads the lines between the fences (`firstLine` is the 1-based line number of the
 * first of them, for errors).
 */
export function parseFrontmatterLines(lines: readonly string[], firstLine: number): Record<string, LineValue> {
  const data: Record<string, LineValue> = {}
  let nested: { key: string; map: Record<string, string> } | undefined
  for (const [i, line] of lines.entries()) {
    const n = i + firstLine
    if (line.trim() === '' || line.startsWith('#')) continue
    if (/^[ \t]/.test(line)) {
      if (line.startsWith('\t') || /^ *\t/.test(line)) throw new FrontmatterError('indent with spaces, not tabs', n)
      if (!nested) throw new FrontmatterError('unexpected indented line (only `key:` with nothing after it may be followed by indented `name: value` lines)', n)
      if (/^ +- /.test(line) || /^ +-$/.test(line)) throw new FrontmatterError('lists are not supported: use a comma-separated value or a JSON value on one line', n)
      const match = NESTED.exec(line)
      if (!match) throw new FrontmatterError('expected an indented `name: value` line', n)
      const key = unquoteKey(match[1] as string, n)
      const value = match[2] === undefined ? '' : parseScalar(match[2], n)
      if (match[2] === undefined || value === '') {
        throw new FrontmatterError(`"${key}" has no value; deeper nesting is not supported: write "${nested.key}" as a JSON object on one line`, n)
      }
      if (Object.hasOwn(nested.map, key)) throw new FrontmatterError(`"${nested.key}.${key}" is given twice`, n)
      nested.map[key] = value
      continue
    }
    nested = undefined
    if (line.startsWith('- ') || line === '-') throw new FrontmatterError('lists are not supported: use a comma-separated value or a JSON value on one line', n)
    const match = KEY.exec(line)
    if (!match) throw new FrontmatterError('expected `key: value`', n)
    const key = match[1] as string
    if (Object.hasOwn(data, key)) throw new FrontmatterError(`"${key}" is given twice`, n)
    const raw = match[2]?.trim() ?? ''
    if (raw === '') {
      // Either an empty value or the start of an indented map; the next lines decide.
      const map: Record<string, string> = {}
      nested = { key, map }
      data[key] = map
      continue
    }
    data[key] = parseScalar(raw, n)
  }
  return data
}
