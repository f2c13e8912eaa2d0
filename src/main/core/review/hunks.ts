import { applyPatch, formatPatch, OMIT_HEADERS, reversePatch, structuredPatch, type StructuredPatch } from 'diff'
import type { ReviewHunk, ReviewLine } from '@shared/schema/review'

/** The hunks that turn `before` into `after`, with 3 lines of context (as the diff editor shows them). */
export function patchOf(path: string, before: string, after: string): StructuredPatch {
  return structuredPatch(`a/${path}`, `b/${path}`, before, after, '', '', { context: 3 })
}

function lineOf(raw: string): ReviewLine | null {
  const mark = raw[0]
  if (mark === '+') return { kind: 'add', text: raw.slice(1) }
  if (mark === '-') return { kind: 'del', text: raw.slice(1) }
  if (mark === ' ') return { kind: 'context', text: raw.slice(1) }
  // "\ No newline at end of file" annotates the line before it; not a line of the file.
  return null
}

/**
 * The patch's hunks as data. A side with no lines (a new or an emptied file)
 * starts at 0 in unified diffs; it is reported as line 1 so the editor never
 * shows a phantom line before the first one.
 */
export function reviewHunks(patch: StructuredPatch): Omit<ReviewHunk, 'decision'>[] {
  return patch.hunks.map((hunk, index) => ({
    index,
    oldStart: hunk.oldLines === 0 && hunk.oldStart === 0 ? 1 : hunk.oldStart,
    oldLines: hunk.oldLines,
    newStart: hunk.newLines === 0 && hunk.newStart === 0 ? 1 : hunk.newStart,
    newLines: hunk.newLines,
    lines: hunk.lines.map(lineOf).filter((l): l is ReviewLine => l !== null),
  }))
}

/** One hunk as unified diff text (what the model is told it had changed). */
export function hunkText(patch: StructuredPatch, index: number): string {
  const hunk = patch.hunks[index]
  if (!hunk) return ''
  return formatPatch({ ...patch, hunks: [hunk] }, OMIT_HEADERS).trimEnd()
}

/**
 * `current` with the given hunks undone, or null when the file no longer has
 * those hunks' lines (changed since): nothing may be written then. jsdiff finds
 * a hunk at an offset, so hunks reverted earlier do not get in the way.
 */
export function revertHunks(patch: StructuredPatch, indices: readonly number[], current: string): string | null {
  const hunks = [...new Set(indices)].sort((a, b) => a - b).flatMap((i) => (patch.hunks[i] ? [patch.hunks[i]] : []))
  if (hunks.length === 0) return current
  const result = applyPatch(current, reversePatch({ ...patch, hunks }))
  return result === false ? null : result
}
