import type { Checkpoint } from '@shared/schema/checkpoint'

const TRIGGER: Record<Checkpoint['trigger'], string> = {
  message: 'Before message',
  step: 'After tool step',
  restore: 'Before restore',
  fork: 'Fork',
  review: 'Before review',
  merge: 'Before merge',
}

export function triggerLabel(trigger: Checkpoint['trigger']): string {
  return TRIGGER[trigger]
}

export function checkpointTime(checkpoint: Checkpoint): string {
  return new Date(checkpoint.createdAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })
}

export function checkpointLabel(checkpoint: Checkpoint): string {
  return `${triggerLabel(checkpoint.trigger)} · ${checkpointTime(checkpoint)}`
}

/** "+12 −3 · 2 files", or "no file changes". */
export function changeLine(checkpoint: Checkpoint): string {
  const s = checkpoint.summary
  const files = s.added + s.modified + s.deleted
  if (files === 0) return 'no file changes'
  return `+${s.additions} −${s.deletions} · ${files} file${files === 1 ? '' : 's'}`
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
 * "You are here": the newest checkpoint whose snapshot is the one our last
 * step or restore left the tree at. None when the position is unknown or
 * belongs to another session's checkpoint.
 */
export function hereId(list: readonly Checkpoint[], position: string | null): string | null {
  if (!position) return null
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
