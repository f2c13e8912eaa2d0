import { ToolError } from '../errors'
import { detectEol } from '../fs/text'
import type { PatchOp } from './types'

interface Chunk {
  /** Text after `@@`: a line to find before the chunk (a function or class header). */
  anchor?: string
  oldLines: string[]
  newLines: string[]
  /** The chunk's lines in order: context (` `), removed (`-`) and added (`+`). */
  ops: ChunkOp[]
  atEof: boolean
}

interface ChunkOp {
  mark: ' ' | '-' | '+'
  text: string
}

/** A line of the file with its own line break ('' for a last line without one). */
interface FileLine {
  text: string
  eol: string
}

const FILE_HEADER = /^\*\*\* (Add|Delete|Update) File: (.+)$/

/**
 * Parses the `*** Begin Patch` envelope: `*** Add File:` with `+` lines,
 * `*** Delete File:`, and `*** Update File:` (optionally `*** Move to:`) with chunks
 * introduced by `@@` whose lines start with ` `, `-` or `+`.
 */
export function parseEnvelope(text: string): PatchOp[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  const begin = lines.findIndex((l) => l.trim() === '*** Begin Patch')
  if (begin < 0) throw new ToolError('The patch must start with "*** Begin Patch".')
  let end = lines.findIndex((l, i) => i > begin && l.trim() === '*** End Patch')
  if (end < 0) end = lines.length // models sometimes stop before the closing line; everything after Begin counts
  const ops: PatchOp[] = []
  let i = begin + 1
  while (i < end) {
    const line = lines[i] as string
    if (line.trim() === '') {
      i++
      continue
    }
    const header = FILE_HEADER.exec(line.trim())
    if (!header) throw new ToolError(`Unexpected line ${i + 1} in the patch: ${JSON.stringify(line)}. Expected "*** Add File:", "*** Update File:" or "*** Delete File:".`)
    const kind = header[1] as string
    const path = (header[2] as string).trim()
    i++
    if (kind === 'Delete') {
      ops.push({ type: 'delete', path })
      continue
    }
    if (kind === 'Add') {
      const body: string[] = []
      while (i < end && !(lines[i] as string).startsWith('*** ')) {
        const l = lines[i] as string
        if (!l.startsWith('+')) throw new ToolError(`Line ${i + 1}: every line of an added file must start with "+": ${JSON.stringify(l)}`)
        body.push(l.slice(1))
        i++
      }
      ops.push({ type: 'add', path, content: body.length > 0 ? `${body.join('\n')}\n` : '' })
      continue
    }
    let moveTo: string | undefined
    if ((lines[i] ?? '').startsWith('*** Move to: ')) {
      moveTo = (lines[i] as string).slice('*** Move to: '.length).trim()
      i++
    }
    const chunks: Chunk[] = []
    let current: Chunk | undefined
    while (i < end) {
      const l = lines[i] as string
      if (FILE_HEADER.test(l.trim())) break
      if (l.trim() === '*** End of File') {
        if (current) current.atEof = true
        i++
        continue
      }
      if (l.startsWith('@@')) {
        const anchor = l.slice(2).replace(/@@\s*$/, '').trim()
        current = { oldLines: [], newLines: [], ops: [], atEof: false, ...(anchor ? { anchor } : {}) }
        chunks.push(current)
        i++
        continue
      }
      if (!current) {
        current = { oldLines: [], newLines: [], ops: [], atEof: false }
        chunks.push(current)
      }
      const mark = l[0]
      const rest = l.slice(1)
      if (mark === '+') {
        current.newLines.push(rest)
        current.ops.push({ mark: '+', text: rest })
      } else if (mark === '-') {
        current.oldLines.push(rest)
        current.ops.push({ mark: '-', text: rest })
      } else if (mark === ' ' || l === '') {
        // An empty line is context whose leading space the model dropped.
        current.oldLines.push(rest)
        current.newLines.push(rest)
        current.ops.push({ mark: ' ', text: rest })
      } else throw new ToolError(`Line ${i + 1} of the update to ${path} must start with " ", "-", "+" or "@@": ${JSON.stringify(l)}`)
      i++
    }
    if (chunks.length === 0 && !moveTo) throw new ToolError(`The update to ${path} has no changes.`)
    ops.push({ type: 'update', path, ...(moveTo ? { moveTo } : {}), apply: (content) => applyChunks(content, chunks, path) })
  }
  if (ops.length === 0) throw new ToolError('The patch contains no file operations.')
  return ops
}

/** Typographic punctuation models substitute for ASCII. */
function normalizePunctuation(text: string): string {
  return text
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u201a\u201b]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f]/g, '"')
    .replace(/[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g, ' ')
}

const COMPARERS: Array<(a: string, b: string) => boolean> = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
  (a, b) => normalizePunctuation(a.trim()) === normalizePunctuation(b.trim()),
]

/** Where `needle` occurs in `lines` at or after `from`, trying looser comparisons in turn. */
function seek(lines: string[], needle: string[], from: number, atEof: boolean): number {
  if (needle.length === 0) return atEof ? lines.length : from
  for (const same of COMPARERS) {
    if (atEof) {
      const start = lines.length - needle.length
      if (start >= from && needle.every((n, k) => same(lines[start + k] as string, n))) return start
    }
    for (let start = from; start + needle.length <= lines.length; start++) {
      if (needle.every((n, k) => same(lines[start + k] as string, n))) return start
    }
  }
  return -1
}

/** Splits text into lines that keep their own line breaks, so mixed CRLF/LF files stay as they are. */
function splitKeepingEols(content: string): FileLine[] {
  const lines: FileLine[] = []
  let at = 0
  while (at < content.length) {
    const nl = content.indexOf('\n', at)
    if (nl < 0) {
      lines.push({ text: content.slice(at), eol: '' })
      break
    }
    const crlf = nl > at && content.charCodeAt(nl - 1) === 13
    lines.push({ text: content.slice(at, crlf ? nl - 1 : nl), eol: crlf ? '\r\n' : '\n' })
    at = nl + 1
  }
  return lines
}

interface Replacement {
  start: number
  remove: number
  ops: ChunkOp[]
}

/**
 * Applies the chunks as Codex does: each chunk is found after the previous one
 * (after its `@@` anchor when it has one); a chunk of only `+` lines with no anchor
 * is appended at the end of the file and does not move the cursor. Context lines
 * keep the file's own text and line breaks, a line that replaces a removed one
 * keeps that line's break, other added lines get the file's dominant line break,
 * and a byte order mark stays where it was.
 */
function applyChunks(content: string, chunks: Chunk[], path: string): string {
  const bom = content.startsWith('\uFEFF') ? '\uFEFF' : ''
  const body = content.slice(bom.length)
  const eol = detectEol(body)
  const hadFinalNewline = body.endsWith('\n')
  const fileLines = splitKeepingEols(body)
  const lines = fileLines.map((l) => l.text)
  const replacements: Replacement[] = []
  let cursor = 0
  for (const [n, chunk] of chunks.entries()) {
    if (chunk.anchor) {
      const at = seek(lines, [chunk.anchor], cursor, false)
      if (at < 0) throw new ToolError(`Chunk ${n + 1} of the update to ${path}: the context line "@@ ${chunk.anchor}" was not found. Re-read the file and give lines that exist.`)
      cursor = at + 1
    }
    if (chunk.oldLines.length === 0 && !chunk.anchor) {
      replacements.push({ start: lines.length, remove: 0, ops: chunk.ops })
      continue
    }
    let oldLines = chunk.oldLines
    let ops = chunk.ops
    let start = seek(lines, oldLines, cursor, chunk.atEof)
    const lastOp = ops[ops.length - 1]
    if (start < 0 && lastOp?.mark === ' ' && lastOp.text === '') {
      // A trailing blank context line the file does not have.
      oldLines = oldLines.slice(0, -1)
      ops = ops.slice(0, -1)
      start = seek(lines, oldLines, cursor, chunk.atEof)
    }
    if (start < 0) {
      throw new ToolError(
        `Chunk ${n + 1} of the update to ${path} does not match the file. These lines were expected:\n${chunk.oldLines.join('\n')}\n` +
          'Re-read the file and make the context (" ") and removed ("-") lines match it exactly.',
      )
    }
    replacements.push({ start, remove: oldLines.length, ops })
    cursor = start + oldLines.length
  }
  // Later positions first, so earlier ones stay valid; a stable sort keeps appends in patch order.
  const ordered = replacements.map((r, i) => ({ r, i })).sort((a, b) => b.r.start - a.r.start || b.i - a.i)
  for (const { r } of ordered) {
    const region = fileLines.slice(r.start, r.start + r.remove)
    const out: FileLine[] = []
    let k = 0
    // A `+` line that replaces a removed one takes that line's own break (Codex keeps a mixed file's
    // CRLF and LF lines where they were); the lines a run adds beyond those take the run's last one.
    let removed: string[] = []
    let runEol: string | undefined
    for (const op of r.ops) {
      if (op.mark === ' ') {
        out.push(region[k++] as FileLine)
        removed = []
        runEol = undefined
      } else if (op.mark === '-') {
        const line = region[k++] as FileLine
        removed.push(line.eol || eol)
      } else {
        runEol = removed.shift() ?? runEol
        out.push({ text: op.text, eol: runEol ?? eol })
      }
    }
    fileLines.splice(r.start, r.remove, ...out)
  }
  // Every line but the last ends with a break; the last keeps the file's choice.
  fileLines.forEach((line, i) => {
    if (i < fileLines.length - 1 && line.eol === '') line.eol = eol
  })
  const last = fileLines[fileLines.length - 1]
  if (last) last.eol = hadFinalNewline || body === '' ? last.eol || eol : ''
  return bom + fileLines.map((l) => l.text + l.eol).join('')
}
