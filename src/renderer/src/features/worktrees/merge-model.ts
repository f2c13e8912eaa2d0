import type { MergeRegion } from '@shared/schema/worktree'

export type ConflictRegion = Extract<MergeRegion, { kind: 'conflict' }>

/** What the user took for one conflict: the worktree's text, the main tree's, both (main tree's first), or the base. */
export type Choice = 'incoming' | 'current' | 'both' | 'base'

/** The opening marker of conflict `index` (0-based) in the result while it is unresolved. */
export function openMarker(index: number): string {
  return `<<<<<<< main tree (conflict ${index + 1})\n`
}
const MIDDLE = '=======\n'
const CLOSE = '>>>>>>> worktree\n'

function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`
}

/** The conflict as markers in the result: the main tree's text, then the worktree's. */
export function markerBlock(region: ConflictRegion, index: number): string {
  return `${openMarker(index)}${withNewline(region.current)}${MIDDLE}${withNewline(region.incoming)}${CLOSE}`
}

export function choiceText(region: ConflictRegion, choice: Choice): string {
  switch (choice) {
    case 'incoming':
      return region.incoming
    case 'current':
      return region.current
    case 'both':
      return withNewline(region.current) + region.incoming
    case 'base':
      return region.base
  }
}

/** The result the editor starts from: merged text with each conflict as a marker block. */
export function initialResult(regions: readonly MergeRegion[]): string {
  let index = 0
  return regions.map((r) => (r.kind === 'same' ? r.text : markerBlock(r, index++))).join('')
}

/** The conflicts of `regions`, in order. */
export function conflictsOf(regions: readonly MergeRegion[]): ConflictRegion[] {
  return regions.filter((r): r is ConflictRegion => r.kind === 'conflict')
}

/**
 * Settles conflict `index` in the result as the user edits it: its marker block (found by its numbered
 * opening line, so edits elsewhere are kept) becomes the chosen text. Null when the block is no longer there
 * (the user resolved it by hand).
 */
export function applyChoice(result: string, region: ConflictRegion, index: number, choice: Choice): string | null {
  const block = markerBlock(region, index)
  const at = result.indexOf(block)
  if (at >= 0) return result.slice(0, at) + choiceText(region, choice) + result.slice(at + block.length)
  return null
}

/** Conflicts still marked in the result (by number, 0-based): the merge cannot be saved while any remain. */
export function unresolved(result: string, count: number): number[] {
  const open: number[] = []
  for (let i = 0; i < count; i++) if (result.includes(openMarker(i))) open.push(i)
  return open
}

/** The 1-based line range of `part` in `text`, searched from `from` (a character offset); null when absent. */
export function lineRangeOf(text: string, part: string, from: number): { start: number; end: number; next: number } | null {
  if (part === '') return null
  const at = text.indexOf(part, from)
  if (at < 0) return null
  const start = text.slice(0, at).split('\n').length
  const lines = part.endsWith('\n') ? part.split('\n').length - 1 : part.split('\n').length
  return { start, end: start + lines - 1, next: at + part.length }
}

/**
 * Where each conflict's side lies in that side's whole file, for highlighting: each conflict's text is found
 * after the previous one (the conflicts come in file order), so a repeated block is not taken for an earlier one.
 */
export function sideRanges(text: string, conflicts: readonly ConflictRegion[], side: 'current' | 'incoming'): Array<{ start: number; end: number } | null> {
  let from = 0
  return conflicts.map((c) => {
    const range = lineRangeOf(text, c[side], from)
    if (!range) return null
    from = range.next
    return { start: range.start, end: range.end }
  })
}
