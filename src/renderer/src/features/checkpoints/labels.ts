import type { Checkpoint } from '@shared/schema/checkpoint'
import { checkpointTitle, lineCounts } from '@shared/checkpoint-label'

export function checkpointTime(checkpoint: Checkpoint): string {
  return new Date(checkpoint.createdAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })
}

/** "Edited src/a.ts +4 −1 · 10:31:02": what happened and when, as the timeline names it. */
export function checkpointLabel(checkpoint: Checkpoint, snippet = ''): string {
  return `${checkpointTitle(checkpoint, snippet)} · ${checkpointTime(checkpoint)}`
}

/** "a.ts +2 −1, b.ts +1": each file with its lines, for a step that changed more than one. */
export function fileLines(checkpoint: Checkpoint, shown = 3): string {
  const files = checkpoint.summary.files
  const total = Math.max(files.length, checkpoint.summary.added + checkpoint.summary.modified + checkpoint.summary.deleted)
  const named = files.slice(0, shown).map((f) => {
    const counts = lineCounts(f.additions ?? 0, f.deletions ?? 0)
    const name = f.path.slice(f.path.lastIndexOf('/') + 1)
    return counts ? `${name} ${counts}` : name
  })
  const more = total - named.length
  return more > 0 ? `${named.join(', ')} +${more} more` : named.join(', ')
}

/** "a.ts, b.ts, c.ts +2 more" (base names; the full paths are in the row's tooltip), or '' without files. */
export function fileNames(checkpoint: Checkpoint, shown = 3): string {
  const files = checkpoint.summary.files
  if (files.length === 0) return ''
  const total = checkpoint.summary.added + checkpoint.summary.modified + checkpoint.summary.deleted
  const names = files.slice(0, shown).map((f) => f.path.slice(f.path.lastIndexOf('/') + 1))
  const more = Math.max(total, files.length) - names.length
  return more > 0 ? `${names.join(', ')} +${more} more` : names.join(', ')
}

/**
 * "You are here": the checkpoint last restored to, else the newest checkpoint whose snapshot is the one our last
 * step or restore left the tree at. None when the position is unknown or
 * belongs to another session's checkpoint.
 */
export function hereId(list: readonly Checkpoint[], position: string | null, restoredTo: string | null = null): string | null {
  if (!position) return null
  // After a restore the tree is at the restored checkpoint, even where a later one has the same snapshot.
  if (restoredTo && list.some((c) => c.id === restoredTo && c.snapshotId === position)) return restoredTo
  for (let i = list.length - 1; i >= 0; i--) {
    const c = list[i]
    if (c && c.snapshotId === position) return c.id
  }
  return null
}

/**
 * The selected row after a key press, by checkpoint id so rows added above
 * (a restore's "Before restore") never move the selection to another
 * checkpoint. `rows` are newest first.
 */
export function moveSelection(rows: readonly Checkpoint[], selectedId: string | null, delta: number): string | null {
  if (rows.length === 0) return null
  const index = rows.findIndex((c) => c.id === selectedId)
  const from = index < 0 ? 0 : index
  const to = Math.min(rows.length - 1, Math.max(0, from + delta))
  return rows[to]?.id ?? null
}
