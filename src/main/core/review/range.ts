import type { Checkpoint } from '@shared/schema/checkpoint'

/**
 * The last turn of a session that changed files: from the message checkpoint
 * before its last step checkpoint to that step. `list` is oldest first.
 */
export function lastTurnRange(list: readonly Checkpoint[]): { fromId: string; toId: string } | null {
  const stepIndex = list.findLastIndex((c) => c.trigger === 'step')
  if (stepIndex < 0) return null
  const start = list.slice(0, stepIndex).findLast((c) => c.trigger === 'message')
  const step = list[stepIndex]
  return start && step ? { fromId: start.id, toId: step.id } : null
}
