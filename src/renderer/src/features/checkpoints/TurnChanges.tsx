import { useEffect } from 'react'
import type { Checkpoint } from '@shared/schema/checkpoint'
import { useChatController, useCheckpoints } from '../../stores/chat'

interface TurnChangesProps {
  sessionId: string
  userMessageId: string | null
  messageIds: readonly string[]
}

interface TurnRange {
  fromId: string
  toId: string
  files: number
}

/**
 * The turn's "before" (its message checkpoint) and "after": its last step
 * checkpoint, else the next message's checkpoint when that saw changes. A step
 * checkpoint exists only when a step changed the tree (steps rescan), so a turn
 * without one changed nothing and offers no review.
 */
export function turnRange(list: readonly Checkpoint[] | undefined, userMessageId: string | null, messageIds: readonly string[]): TurnRange | null {
  if (!list || !userMessageId) return null
  const startIndex = list.findIndex((c) => c.trigger === 'message' && c.messageId === userMessageId)
  const start = list[startIndex]
  if (!start) return null
  const steps = list.filter((c) => c.trigger === 'step' && c.messageId !== null && messageIds.includes(c.messageId))
  const end = steps.at(-1)
  if (end) return { fromId: start.id, toId: end.id, files: new Set(steps.flatMap((c) => c.summary.files.map((f) => f.path))).size }
  const next = list.slice(startIndex + 1).find((c) => c.trigger === 'message')
  if (next && next.summary.files.length > 0) return { fromId: start.id, toId: next.id, files: next.summary.files.length }
  return null
}

/** "Review changes" under a turn that changed files: opens the turn's diff with per-hunk accept / reject. */
export function TurnChanges({ sessionId, userMessageId, messageIds }: TurnChangesProps) {
  const chat = useChatController()
  const list = useCheckpoints((s) => s.bySession[sessionId])
  useEffect(() => chat.checkpoints.ensure(sessionId), [chat, sessionId])
  const range = turnRange(list, userMessageId, messageIds)
  if (!range) return null
  return (
    <button
      type="button"
      className="link turn-review"
      onClick={() => chat.checkpoints.open({ kind: 'turn', sessionId, fromId: range.fromId, toId: range.toId, title: 'Changes in this turn' })}
      data-testid="review-turn"
    >
      Review changes · {range.files} file{range.files === 1 ? '' : 's'}
    </button>
  )
}
