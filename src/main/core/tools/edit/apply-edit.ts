import { ToolError } from '../errors'
import { splitBom } from '../fs/bom'
import { detectEol, toEol } from '../fs/text'
import { MATCHERS, closestLine, splitLines, type Span } from './matchers'

export interface EditResult {
  content: string
  /** The matcher that found the text (`exact` unless the model's text was off). */
  matcher: string
  replacements: number
}

function lineOf(content: string, offset: number): number {
  let line = 1
  for (let i = content.indexOf('\n'); i >= 0 && i < offset; i = content.indexOf('\n', i + 1)) line++
  return line
}

function nonOverlapping(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start)
  const kept: Span[] = []
  for (const span of sorted) {
    const last = kept[kept.length - 1]
    if (!last || span.start >= last.end) kept.push(span)
  }
  return kept
}

/**
 * Replaces `oldString` by `newString` in `content`. The model's line breaks are
 * converted to the file's, the matcher cascade finds the text, and only a unique
 * match is accepted (or every match with `replaceAll`). Bytes outside the matched
 * spans (and a leading byte order mark) are untouched. Errors say how to fix the call.
 */
export function applyEdit(fileContent: string, oldString: string, newString: string, replaceAll: boolean, path: string): EditResult {
  if (oldString === newString) {
    throw new ToolError('oldString and newString are identical, so there is nothing to change. Give the new text in newString.')
  }
  if (oldString === '') {
    throw new ToolError(`oldString is empty. To change "${path}", give the exact text to replace; to replace the whole file, use the write tool.`)
  }
  // A byte order mark is not text to match (fuzzy matchers trim it away) and must survive the edit.
  const { bom, body: content } = splitBom(fileContent)
  const eol = detectEol(content)
  const oldText = toEol(oldString, eol)
  const newText = toEol(newString, eol)
  for (const matcher of MATCHERS) {
    const spans = nonOverlapping(matcher.find(content, oldText, newText))
    if (spans.length === 0) continue
    if (spans.length > 1 && !replaceAll) {
      const where = spans.slice(0, 10).map((s) => lineOf(content, s.start)).join(', ')
      throw new ToolError(
        `oldString matches ${spans.length} places in "${path}" (lines ${where}${spans.length > 10 ? ', …' : ''}). ` +
          'Include more surrounding lines in oldString so it matches exactly one place, or set replaceAll to true to change every one.',
        { matches: spans.length },
      )
    }
    let result = content
    for (const span of [...spans].reverse()) {
      result = result.slice(0, span.start) + (span.replacement ?? newText) + result.slice(span.end)
    }
    return { content: bom + result, matcher: matcher.name, replacements: spans.length }
  }
  const near = closestLine(content, oldString)
  const hint = near ? ` The most similar line is ${near.line}: ${JSON.stringify(near.text.slice(0, 200))}.` : ''
  throw new ToolError(
    `oldString was not found in "${path}".${hint} It must match the file's current content exactly, including ` +
      'whitespace and indentation, without line-number prefixes from the read output. Re-read the file and copy the text to replace.',
    { lines: splitLines(content).length },
  )
}
