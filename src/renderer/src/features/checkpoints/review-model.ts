import type { Review, ReviewFile, ReviewHunk } from '@shared/schema/review'

/**
 * The modified-side line a hunk's inline actions sit above: its first added
 * line, or for a pure deletion the line that now follows the removed ones.
 */
export function hunkAnchor(hunk: ReviewHunk): number {
  const lead = hunk.lines.findIndex((l) => l.kind !== 'context')
  return hunk.newStart + Math.max(0, lead)
}

export function hunkCounts(hunk: ReviewHunk): { additions: number; deletions: number } {
  let additions = 0
  let deletions = 0
  for (const l of hunk.lines) {
    if (l.kind === 'add') additions++
    else if (l.kind === 'del') deletions++
  }
  return { additions, deletions }
}

/** Hunks still waiting for a decision. */
export function openHunks(file: ReviewFile): number {
  return file.hunks.filter((h) => h.decision === undefined).length
}

/** "2 of 3 files reviewed" for the review's header. */
export function reviewProgress(review: Review): { reviewed: number; total: number } {
  return { reviewed: review.files.filter((f) => f.reviewed).length, total: review.files.length }
}

/** A file's state in words, for its row and its accessible name. */
export function fileState(file: ReviewFile): string {
  if (!file.reviewed) {
    const open = openHunks(file)
    return file.wholeFile || file.hunks.length === 0 ? 'not reviewed' : `${open} of ${file.hunks.length} hunk${file.hunks.length === 1 ? '' : 's'} open`
  }
  const decisions = new Set(file.hunks.map((h) => h.decision))
  if (file.hunks.length === 0) return 'reviewed'
  if (decisions.size === 1 && decisions.has('rejected')) return file.status === 'added' ? 'rejected (deleted)' : 'rejected'
  if (decisions.size === 1 && decisions.has('accepted')) return 'accepted'
  return 'reviewed'
}

/** The next file to show after deciding one: the first unreviewed after it, else before it, else the same. */
export function nextOpenFile(review: Review, current: string): string {
  const files = review.files
  const index = files.findIndex((f) => f.path === current)
  const after = files.slice(index + 1).find((f) => !f.reviewed)
  const before = files.slice(0, Math.max(0, index)).find((f) => !f.reviewed)
  return (after ?? before ?? files[index])?.path ?? current
}
