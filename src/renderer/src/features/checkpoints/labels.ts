import type { Checkpoint } from '@shared/schema/checkpoint'

const TRIGGER: Record<Checkpoint['trigger'], string> = {
  message: 'Before message',
  step: 'After tool step',
  restore: 'Before restore',
  fork: 'Fork',
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
