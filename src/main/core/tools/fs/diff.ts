import { formatPatch, structuredPatch } from 'diff'
import { splitBom } from './bom'

export interface FileDiff {
  /** Unified diff for the UI. */
  diff: string
  additions: number
  deletions: number
}

const CONTEXT = 3

/** Offsets of the starts of lines 0..n (and one past the end). */
function lineStarts(text: string): number[] {
  const starts = [0]
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  if (starts[starts.length - 1] !== text.length) starts.push(text.length)
  return starts
}

/**
 * A unified diff of one file's change, with line counts. Edits touch a small part
 * of possibly large files, so the unchanged lines at both ends are cut off before
 * diffing (keeping the context lines) and the hunks moved back to their real line
 * numbers: a one-line edit in a 5 MB file costs a diff of a few lines.
 */
export function fileDiff(path: string, beforeText: string, afterText: string): FileDiff {
  // A byte order mark both sides share is not content: left out so line 1 does not look changed.
  const [b0, a0] = [splitBom(beforeText), splitBom(afterText)]
  const shared = b0.bom !== '' && a0.bom !== ''
  const before = shared ? b0.body : beforeText
  const after = shared ? a0.body : afterText
  const a = lineStarts(before)
  const b = lineStarts(after)
  const linesA = a.length - 1
  const linesB = b.length - 1
  let head = 0
  while (head < linesA && head < linesB) {
    const lineA = before.slice(a[head], a[head + 1])
    if (lineA !== after.slice(b[head], b[head + 1])) break
    head++
  }
  let tail = 0
  while (tail < linesA - head && tail < linesB - head) {
    const lineA = before.slice(a[linesA - tail - 1], a[linesA - tail])
    if (lineA !== after.slice(b[linesB - tail - 1], b[linesB - tail])) break
    tail++
  }
  const from = Math.max(0, head - CONTEXT)
  const toA = Math.min(linesA, linesA - tail + CONTEXT)
  const toB = Math.min(linesB, linesB - tail + CONTEXT)
  const windowA = before.slice(a[from], a[toA])
  const windowB = after.slice(b[from], b[toB])
  const patch = structuredPatch(`a/${path}`, `b/${path}`, windowA, windowB, undefined, undefined, { context: CONTEXT })
  let additions = 0
  let deletions = 0
  for (const hunk of patch.hunks) {
    hunk.oldStart += from
    hunk.newStart += from
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions++
      else if (line.startsWith('-')) deletions++
    }
  }
  return { diff: formatPatch(patch), additions, deletions }
}
