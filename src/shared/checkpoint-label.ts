import type { Checkpoint } from './schema/checkpoint'
import { REVIEW_NOTE_END } from './schema/review'

/** Tools whose changes the checkpoint's file list already names (their subject is a path). */
const FILE_TOOLS = new Set(['edit', 'multiedit', 'write', 'apply_patch'])
const SUBJECT_MAX = 60

/**
 * The first line the user wrote in a message, without the review note the app sends ahead of it;
 * what a "Before your message" checkpoint quotes.
 */
export function promptLine(text: string, max = 120): string {
  const end = text.indexOf(REVIEW_NOTE_END)
  const own = end >= 0 ? text.slice(end + REVIEW_NOTE_END.length) : text
  const line = (own.split('\n').find((l) => l.trim()) ?? '').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** "+4 −1" (a side that is zero is left out; '' when both are). */
export function lineCounts(additions: number, deletions: number): string {
  return [additions > 0 ? `+${additions}` : '', deletions > 0 ? `−${deletions}` : ''].filter(Boolean).join(' ')
}

function clip(text: string): string {
  const line = text.split('\n')[0]?.trim() ?? ''
  const cut = line.length > SUBJECT_MAX ? `${line.slice(0, SUBJECT_MAX - 1)}…` : line
  return cut + (text.includes('\n') && cut === line ? ' …' : '')
}

/** "Edited src/a.ts +4 −1", "Created 3 files +40", "Changed 2 files +5 −9"; '' without file changes. */
export function fileChange(checkpoint: Pick<Checkpoint, 'summary'>): string {
  const s = checkpoint.summary
  const count = s.added + s.modified + s.deleted
  if (count === 0) return ''
  const verb = s.added === count ? 'Created' : s.deleted === count ? 'Deleted' : s.modified === count ? 'Edited' : 'Changed'
  const only = count === 1 ? s.files[0] : undefined
  const what = only ? only.path : `${count} files`
  const counts = lineCounts(s.additions, s.deletions)
  return counts ? `${verb} ${what} ${counts}` : `${verb} ${what}`
}

/** "Ran `npm test`", "Ran `npm test` and 2 more commands", "Ran github_create_issue"; '' when only file tools ran. */
function ranLine(checkpoint: Pick<Checkpoint, 'actions'>): string {
  const ran = (checkpoint.actions ?? []).filter((a) => !FILE_TOOLS.has(a.tool))
  const first = ran[0]
  if (!first) return ''
  const name = first.tool === 'bash' && first.subject ? `\`${clip(first.subject)}\`` : first.tool
  if (ran.length === 1) return `Ran ${name}`
  const commands = ran.every((a) => a.tool === 'bash')
  return `Ran ${name} and ${ran.length - 1} more ${commands ? 'command' : 'tool'}${ran.length === 2 ? '' : 's'}`
}

/**
 * What happened at a checkpoint, in plain words, the same in the timeline and in
 * `hotaru checkpoints list`: "Ran `npm test` · Edited src/a.ts +4 −1", "Before your message “…”".
 * `snippet`: the message's first line where the checkpoint did not keep it (older checkpoints).
 */
export function checkpointTitle(checkpoint: Checkpoint, snippet = ''): string {
  switch (checkpoint.trigger) {
    case 'message': {
      const quote = checkpoint.prompt ?? snippet
      return quote ? `Before your message “${quote}”` : 'Before your message'
    }
    case 'step': {
      const parts = [ranLine(checkpoint), fileChange(checkpoint)].filter(Boolean)
      return parts.length > 0 ? parts.join(' · ') : 'After a tool step'
    }
    case 'restore':
      return 'Before a restore (restoring this undoes it)'
    case 'fork':
      return 'Forked from another session'
    case 'review':
      return 'Before applying your review'
    case 'merge':
      return 'Before merging a worktree'
  }
}
