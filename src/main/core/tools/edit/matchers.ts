/**
 * The matchers behind `edit`, strictest first. Models copy text imperfectly: wrong
 * indentation, trimmed or doubled whitespace, over-escaped strings, a drifted middle
 * line. Each matcher returns every span it finds; the caller takes the first matcher
 * that finds anything and accepts it only when the match is unique.
 */

export interface Span {
  start: number
  end: number
  /** The text to put in, when the matcher adapts `newString` (indentation, escapes). */
  replacement?: string
}

export interface Matcher {
  name: string
  find(content: string, oldString: string, newString: string): Span[]
}

interface Line {
  start: number
  /** End of the text, before the line break. */
  end: number
  text: string
}

export function splitLines(content: string): Line[] {
  const lines: Line[] = []
  let start = 0
  for (;;) {
    const nl = content.indexOf('\n', start)
    if (nl < 0) {
      lines.push({ start, end: content.length, text: content.slice(start) })
      return lines
    }
    const end = nl > start && content[nl - 1] === '\r' ? nl - 1 : nl
    lines.push({ start, end, text: content.slice(start, end) })
    start = nl + 1
  }
}

/** The model's lines without the line break at the end (a block "ending with a newline" ends at its last line). */
function blockLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  return lines
}

function stripFinalBreak(text: string, oldString: string): string {
  if (!/\r?\n$/.test(oldString)) return text
  return text.replace(/\r?\n$/, '')
}

function leading(text: string): string {
  return /^[ \t]*/.exec(text)?.[0] ?? ''
}

function minIndent(lines: string[]): { size: number; text: string } {
  let best: { size: number; text: string } | undefined
  for (const line of lines) {
    if (line.trim() === '') continue
    const ws = leading(line)
    if (!best || ws.length < best.size) best = { size: ws.length, text: ws }
  }
  return best ?? { size: 0, text: '' }
}

/** Moves `newString` from the indentation the model used to the one found in the file. */
function reindent(newString: string, oldLines: string[], matched: string[], eol: string): string {
  const from = minIndent(oldLines)
  const to = minIndent(matched)
  if (from.text === to.text) return newString
  return newString
    .split(/\r?\n/)
    .map((line) => {
      if (line.trim() === '') return line
      const ws = leading(line)
      return to.text + line.slice(Math.min(from.size, ws.length))
    })
    .join(eol)
}

function eolOf(content: string): string {
  return content.includes('\r\n') ? '\r\n' : '\n'
}

/** Slides a window of `oldString`'s line count over the file, comparing lines with `same`. */
function lineWindows(
  content: string,
  oldString: string,
  newString: string,
  same: (fileLine: string, oldLine: string) => boolean,
  adapt: boolean,
): Span[] {
  const oldLines = blockLines(oldString)
  if (oldLines.every((l) => l.trim() === '')) return []
  const lines = splitLines(content)
  const spans: Span[] = []
  const replacementBase = stripFinalBreak(newString, oldString)
  for (let i = 0; i + oldLines.length <= lines.length; i++) {
    let ok = true
    for (let k = 0; k < oldLines.length && ok; k++) ok = same((lines[i + k] as Line).text, oldLines[k] as string)
    if (!ok) continue
    const first = lines[i] as Line
    const last = lines[i + oldLines.length - 1] as Line
    const matched = lines.slice(i, i + oldLines.length).map((l) => l.text)
    const replacement = adapt ? reindent(replacementBase, oldLines, matched, eolOf(content)) : replacementBase
    spans.push({ start: first.start, end: last.end, replacement })
    i += oldLines.length - 1
  }
  return spans
}

function occurrences(content: string, needle: string): number[] {
  const found: number[] = []
  if (needle === '') return found
  let at = content.indexOf(needle)
  while (at >= 0) {
    found.push(at)
    at = content.indexOf(needle, at + needle.length)
  }
  return found
}

const exact: Matcher = {
  name: 'exact',
  find: (content, oldString) => occurrences(content, oldString).map((start) => ({ start, end: start + oldString.length })),
}

/** `oldString` with stray whitespace around it: match its trimmed text, and trim `newString` the same way. */
const trimmedBoundary: Matcher = {
  name: 'trimmed-boundary',
  find(content, oldString, newString) {
    const trimmed = oldString.trim()
    if (trimmed === oldString || trimmed === '') return []
    const lead = oldString.slice(0, oldString.indexOf(trimmed))
    const trail = oldString.slice(oldString.indexOf(trimmed) + trimmed.length)
    let replacement = newString
    if (lead && replacement.startsWith(lead)) replacement = replacement.slice(lead.length)
    if (trail && replacement.endsWith(trail)) replacement = replacement.slice(0, -trail.length)
    return occurrences(content, trimmed).map((start) => ({ start, end: start + trimmed.length, replacement }))
  },
}

/** Whole lines equal after removing the block's common indentation. */
const indentationFlexible: Matcher = {
  name: 'indentation-flexible',
  find(content, oldString, newString) {
    const oldLines = blockLines(oldString)
    const oldIndent = minIndent(oldLines).size
    const oldBody = oldLines.map((l) => (l.trim() === '' ? '' : l.slice(oldIndent)))
    const lines = splitLines(content)
    const spans: Span[] = []
    if (oldLines.every((l) => l.trim() === '')) return spans
    const base = stripFinalBreak(newString, oldString)
    const firstOld = (oldLines[0] as string).trim()
    for (let i = 0; i + oldLines.length <= lines.length; i++) {
      // Cheap filter first: the block's first line must match once indentation is gone.
      if ((lines[i] as Line).text.trim() !== firstOld) continue
      const window = lines.slice(i, i + oldLines.length).map((l) => l.text)
      const indent = minIndent(window).size
      const body = window.map((l) => (l.trim() === '' ? '' : l.slice(indent)))
      if (!body.every((l, k) => l === oldBody[k])) continue
      const first = lines[i] as Line
      const last = lines[i + oldLines.length - 1] as Line
      spans.push({ start: first.start, end: last.end, replacement: reindent(base, oldLines, window, eolOf(content)) })
      i += oldLines.length - 1
    }
    return spans
  },
}

/** Whole lines equal after trimming each. */
const lineTrimmed: Matcher = {
  name: 'line-trimmed',
  find: (content, oldString, newString) => lineWindows(content, oldString, newString, (a, b) => a.trim() === b.trim(), true),
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')
}

/** Runs of whitespace count as one space: per line for blocks, within a line for one-line strings. */
const whitespaceNormalized: Matcher = {
  name: 'whitespace-normalized',
  find(content, oldString, newString) {
    const oldLines = blockLines(oldString)
    if (oldLines.length > 1) return lineWindows(content, oldString, newString, (a, b) => collapse(a) === collapse(b), true)
    const tokens = collapse(oldString).split(' ').filter(Boolean)
    if (tokens.length === 0) return []
    const regex = new RegExp(tokens.map(escapeRegExp).join('[ \\t]+'), 'g')
    const spans: Span[] = []
    for (const match of content.matchAll(regex)) {
      const start = match.index ?? 0
      spans.push({ start, end: start + match[0].length, replacement: stripFinalBreak(newString, oldString) })
    }
    return spans
  },
}

/** Undoes one level of escaping a model added (`\\n` for a line break, `\\"` for a quote…). */
export function unescapeModelString(text: string): string {
  return text.replace(/\\(n|t|r|'|"|`|\\|\$|\n)/g, (_all, ch: string) => {
    const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', "'": "'", '"': '"', '`': '`', '\\': '\\', $: '$', '\n': '\n' }
    return map[ch] ?? ch
  })
}

const escapeNormalized: Matcher = {
  name: 'escape-normalized',
  find(content, oldString, newString) {
    const unescaped = unescapeModelString(oldString)
    if (unescaped === oldString) return []
    const replacement = unescapeModelString(newString)
    return occurrences(content, unescaped).map((start) => ({ start, end: start + unescaped.length, replacement }))
  },
}

function similarity(a: string, b: string): number {
  if (a === b) return 1
  const x = a.slice(0, 400)
  const y = b.slice(0, 400)
  const longest = Math.max(x.length, y.length)
  if (longest === 0) return 1
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j)
  for (let i = 1; i <= x.length; i++) {
    const row = [i]
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1
      row.push(Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost))
    }
    prev = row
  }
  return 1 - (prev[y.length] as number) / longest
}

/** How alike the middle lines must be when the first and last lines anchor a block. */
export const BLOCK_ANCHOR_THRESHOLD = 0.75

/**
 * First and last lines match (trimmed) and the lines between are similar enough:
 * the model's middle drifted (a renamed variable, a changed comment).
 */
const blockAnchor: Matcher = {
  name: 'block-anchor',
  find(content, oldString, newString) {
    const oldLines = blockLines(oldString)
    if (oldLines.length < 3) return []
    const firstOld = (oldLines[0] as string).trim()
    const lastOld = (oldLines[oldLines.length - 1] as string).trim()
    if (firstOld === '' || lastOld === '') return []
    const lines = splitLines(content)
    const middleOld = oldLines.slice(1, -1).map((l) => l.trim())
    const spans: Span[] = []
    const maxSpan = oldLines.length + Math.max(2, Math.ceil(oldLines.length * 0.25))
    for (let i = 0; i < lines.length; i++) {
      if ((lines[i] as Line).text.trim() !== firstOld) continue
      for (let j = i + 2; j < lines.length && j - i + 1 <= maxSpan; j++) {
        if ((lines[j] as Line).text.trim() !== lastOld) continue
        const middle = lines.slice(i + 1, j).map((l) => l.text.trim())
        const count = Math.max(middle.length, middleOld.length)
        let total = 0
        for (let k = 0; k < Math.min(middle.length, middleOld.length); k++) total += similarity(middle[k] as string, middleOld[k] as string)
        if (count === 0 || total / count < BLOCK_ANCHOR_THRESHOLD) break
        const matched = lines.slice(i, j + 1).map((l) => l.text)
        spans.push({
          start: (lines[i] as Line).start,
          end: (lines[j] as Line).end,
          replacement: reindent(stripFinalBreak(newString, oldString), oldLines, matched, eolOf(content)),
        })
        break
      }
    }
    return spans
  },
}

export const MATCHERS: readonly Matcher[] = [
  exact,
  indentationFlexible,
  lineTrimmed,
  whitespaceNormalized,
  escapeNormalized,
  trimmedBoundary,
  blockAnchor,
]

/** The file line most like `oldString`'s first line, to point the model at what it probably meant. */
export function closestLine(content: string, oldString: string): { line: number; text: string; score: number } | undefined {
  const target = blockLines(oldString).find((l) => l.trim() !== '')?.trim()
  if (!target) return undefined
  let best: { line: number; text: string; score: number } | undefined
  const lines = splitLines(content)
  if (lines.length > 20_000) return undefined
  lines.forEach((l, index) => {
    const text = l.text.trim()
    if (text === '') return
    const score = similarity(text, target)
    if (!best || score > best.score) best = { line: index + 1, text: l.text, score }
  })
  return best && best.score >= 0.5 ? best : undefined
}
