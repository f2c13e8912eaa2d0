import { applyPatch, formatPatch, OMIT_HEADERS, reversePatch, structuredPatch, type StructuredPatch } from 'diff'

export interface FilePatch {
  patch: StructuredPatch
  /** Each hunk as unified diff text (shown, and reported to the model when rejected). */
  texts: string[]
}

/** The hunks that turn `before` into `after` (3 lines of context, as in the editor's diff). */
export function patchOf(path: string, before: string, after: string): FilePatch {
  const patch = structuredPatch(`a/${path}`, `b/${path}`, before, after, '', '', { context: 3 })
  const texts = patch.hunks.map((hunk) => formatPatch({ ...patch, hunks: [hunk] }, OMIT_HEADERS).trimEnd())
  return { patch, texts }
}

/**
 * `current` with one hunk undone, or null when the file no longer has that
 * hunk's lines (changed since): nothing is written then.
 */
export function revertHunk(file: FilePatch, index: number, current: string): string | null {
  const hunk = file.patch.hunks[index]
  if (!hunk) return null
  const reversed = reversePatch({ ...file.patch, hunks: [hunk] })
  const result = applyPatch(current, reversed)
  return result === false ? null : result
}
