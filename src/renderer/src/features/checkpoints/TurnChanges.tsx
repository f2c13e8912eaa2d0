import { useEffect } from 'react'
import { useChatController, useCheckpoints } from '../../stores/chat'
import { turnRange } from '../review'

interface TurnChangesProps {
  sessionId: string
  userMessageId: string | null
  messageIds: readonly string[]
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
