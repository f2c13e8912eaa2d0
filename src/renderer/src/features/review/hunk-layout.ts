import type { ReviewFile, ReviewHunk } from '@shared/schema/review'

/** Where an undecided hunk sits in the file as it is now (rejected hunks before it were reverted on disk). */
export interface PlacedHunk {
  index: number
  /** 1-based line the hunk's actions sit above: its first changed line. */
  anchor: number
  /** 1-based lines the agent added or changed. */
  added: number[]
  /** Removed lines, shown above the line that now follows them. */
  removed: { beforeLine: number; lines: string[] }[]
  additions: number
  deletions: number
  /** The added lines' text, to check the file still has them. */
  addedText: string[]
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

/** How many lines a reverted hunk moved the lines after it (its removed lines came back, its added ones went). */
function shiftOf(hunk: ReviewHunk): number {
  const { additions, deletions } = hunkCounts(hunk)
  return deletions - additions
}

/**
 * The file's hunks still waiting for a decision (and the accepted ones, when asked), placed in
 * the text that has every rejected hunk reverted.
 */
export function placeOpenHunks(file: ReviewFile, withAccepted = false): PlacedHunk[] {
  const placed: PlacedHunk[] = []
  let shift = 0
  for (const hunk of file.hunks) {
    if (hunk.decision === 'rejected') {
      shift += shiftOf(hunk)
      continue
    }
    if (hunk.decision === 'accepted' && !withAccepted) continue
    let line = hunk.newStart + shift
    const added: number[] = []
    const addedText: string[] = []
    const removed: PlacedHunk['removed'] = []
    for (const l of hunk.lines) {
      if (l.kind === 'context') line++
      else if (l.kind === 'add') {
        added.push(line)
        addedText.push(l.text)
        line++
      } else {
        const last = removed.at(-1)
        if (last && last.beforeLine === line) last.lines.push(l.text)
        else removed.push({ beforeLine: line, lines: [l.text] })
      }
    }
    const first = Math.min(added[0] ?? Infinity, removed[0]?.beforeLine ?? Infinity)
    placed.push({ index: hunk.index, anchor: Number.isFinite(first) ? first : hunk.newStart + shift, added, removed, ...hunkCounts(hunk), addedText })
  }
  return placed
}

/**
 * The agent's version of a file with the rejected hunks taken out: what the
 * file is after the review so far (the diff shows only what is still in it).
 */
export function withoutRejected(after: string, file: ReviewFile): string {
  const rejected = file.hunks.filter((h) => h.decision === 'rejected')
  if (rejected.length === 0) return after
  const lines = after.split('\n')
  // Back to front, so the line numbers of the hunks still to do stay right.
  for (const hunk of [...rejected].sort((a, b) => b.newStart - a.newStart)) {
    const oldSide = hunk.lines.filter((l) => l.kind !== 'add').map((l) => l.text)
    // A side with no lines only happens to an emptied file (no context around it): it starts at the top.
    const start = hunk.newLines === 0 ? 0 : hunk.newStart - 1
    lines.splice(start, hunk.newLines, ...oldSide)
  }
  return lines.join('\n')
}

/** The added and removed lines of a file's hunks that are still in it (not rejected). */
export function liveCounts(file: ReviewFile): { additions: number; deletions: number } {
  let additions = 0
  let deletions = 0
  for (const hunk of file.hunks) {
    if (hunk.decision === 'rejected') continue
    const counts = hunkCounts(hunk)
    additions += counts.additions
    deletions += counts.deletions
  }
  return { additions, deletions }
}

/** Hunks of a file still open. */
export function openCount(file: ReviewFile): number {
  return file.hunks.filter((h) => h.decision === undefined).length + (file.wholeFile && !file.reviewed ? 1 : 0)
}
