import { LineCounter, parseDocument } from 'yaml'
import { FrontmatterError, parseFrontmatterLines } from './frontmatter-lines'

export { FrontmatterError } from './frontmatter-lines'

/**
 * The frontmatter of skill and agent files, read as YAML (the `yaml` package) with the
 * failsafe schema: every scalar stays a string (`false`, `12` and `1.10` are the text
 * written), so each field is checked by the code that knows what it means. Block
 * scalars (`description: >-`), lists and nested maps are YAML's.
 *
 * Files written by hand for other agents often are not valid YAML, mostly through an
 * unquoted `: ` inside a description (`description: Fill forms: fields, checkboxes`).
 * Such a block is read again as plain `key: value` lines (`frontmatter-lines.ts`, the
 * reader these files were written against) and the result carries a `notice` naming
 * the YAML error, so the file is used and the user learns how to fix it. A block that
 * neither reader accepts is an error with YAML's reason and line.
 */

export type FrontmatterValue = string | FrontmatterValue[] | { [key: string]: FrontmatterValue }

export interface Frontmatter {
  data: Record<string, FrontmatterValue>
  /** Everything after the closing `---`, without the blank lines that follow it. */
  body: string
  /** Whether the text had a frontmatter block at all. */
  present: boolean
  /** Set when the block is not valid YAML and was read as plain `key: value` lines: why, to be shown. */
  notice?: string
}

const FENCE = /^---[ \t]*$/

function yamlBlock(block: string, firstLine: number): { data?: Record<string, FrontmatterValue>; error?: FrontmatterError } {
  const lines = new LineCounter()
  const doc = parseDocument(block, { schema: 'failsafe', uniqueKeys: true, prettyErrors: false, lineCounter: lines })
  const [error] = doc.errors
  if (error) {
    const line = lines.linePos(error.pos[0]).line + firstLine - 1
    return { error: new FrontmatterError(error.message.replace(/\s+at line \d+.*$/s, ''), line) }
  }
  const value: unknown = doc.toJS()
  if (value === null || value === undefined) return { data: {} }
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { error: new FrontmatterError('the frontmatter must be `key: value` lines, not a single value or a list', firstLine) }
  }
  return { data: value as Record<string, FrontmatterValue> }
}

/**
 * Splits `text` into frontmatter and body. Text that does not start with `---` has
 * no frontmatter (`present: false`) and is all body.
 */
export function parseFrontmatter(text: string): Frontmatter {
  const clean = text.replace(/^\uFEFF/, '')
  const lines = clean.split(/\r?\n/)
  if (!FENCE.test(lines[0] ?? '')) return { data: {}, body: clean, present: false }
  const end = lines.findIndex((line, i) => i > 0 && FENCE.test(line))
  if (end < 0) throw new FrontmatterError('the frontmatter has no closing `---` line')
  const blockLines = lines.slice(1, end)
  const body = lines.slice(end + 1).join('\n').replace(/^(?:[ \t]*\n)+/, '')
  const yaml = yamlBlock(blockLines.join('\n'), 2)
  if (yaml.data) return { data: yaml.data, body, present: true }
  const invalid = yaml.error as FrontmatterError
  let data: Record<string, FrontmatterValue>
  try {
    data = parseFrontmatterLines(blockLines, 2)
  } catch {
    // The plain reader did not accept it either: YAML's reason is the one to fix.
    throw invalid
  }
  const notice = `the frontmatter is not valid YAML (${invalid.message}); it was read as plain \`key: value\` lines. Quote the value to make it valid YAML.`
  return { data, body, present: true, notice }
}

/** An empty value, list or map means `key:` had nothing to say. */
export function isEmptyValue(value: FrontmatterValue | undefined): boolean {
  if (value === undefined) return true
  if (typeof value === 'string') return value === ''
  return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0
}

/** The value of `key` as a string; a list or map there is an error. */
export function stringField(data: Record<string, FrontmatterValue>, key: string): string | undefined {
  const value = data[key]
  if (isEmptyValue(value)) return undefined
  if (typeof value !== 'string') throw new FrontmatterError(`"${key}" must be a single value, not a list or indented lines`)
  return value
}
