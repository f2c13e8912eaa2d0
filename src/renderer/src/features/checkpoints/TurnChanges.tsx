import { useEffect } from 'react'
import type { Checkpoint } from '@shared/schema/checkpoint'
import { useChat, useChatController, useCheckpoints } from '../../stores/chat'

interface TurnChangesProps {
  sessionId: string
  userMessageId: string | null
  messageIds: readonly string[]
}

/** Tools that may change files (as the checkpoint service counts them; MCP tools are `server__tool`). */
const CHANGING = new Set(['write', 'edit', 'multiedit', 'apply_patch', 'bash', 'memory'])

interface TurnRange {
  fromId: string
  /** Absent: compare with the working tree. */
  toId?: string
  files: number | null
}

/**
 * The turn's "before" (its message checkpoint) and "after": its last step
 * checkpoint, else the next message's checkpoint, else the working tree (a
 * step whose change the snapshot missed still gets reviewed).
 */
function turnRange(list: readonly Checkpoint[] | undefined, userMessageId: string | null, messageIds: readonly string[], changed: boolean): TurnRange | null {
  if (!list || !userMessageId) return null
  const startIndex = list.findIndex((c) => c.trigger === 'message' && c.messageId === userMessageId)
  const start = list[startIndex]
  if (!start) return null
  const steps = list.filter((c) => c.trigger === 'step' && c.messageId !== null && messageIds.includes(c.messageId))
  const end = steps.at(-1)
  if (end) return { fromId: start.id, toId: end.id, files: new Set(steps.flatMap((c) => c.summary.files.map((f) => f.path))).size }
  const next = list.slice(startIndex + 1).find((c) => c.trigger === 'message')
  if (next) return next.summary.files.length > 0 ? { fromId: start.id, toId: next.id, files: next.summary.files.length } : null
  return changed ? { fromId: start.id, files: null } : null
}

/** "Review changes" under a turn that changed files: opens the turn's diff with per-hunk accept / reject. */
export function TurnChanges({ sessionId, userMessageId, messageIds }: TurnChangesProps) {
  const chat = useChatController()
  const list = useCheckpoints((s) => s.bySession[sessionId])
  const changed = useChat((s) => {
    const t = s.transcripts[sessionId]
    return messageIds.some((id) => t?.parts[id]?.some((p) => p.type === 'tool' && p.state.status === 'completed' && (CHANGING.has(p.tool) || p.tool.includes('__'))))
  })
  useEffect(() => chat.checkpoints.ensure(sessionId), [chat, sessionId])
  const range = turnRange(list, userMessageId, messageIds, changed)
  if (!range) return null
  return (
    <button
      type="button"
      className="link turn-review"
      onClick={() => chat.checkpoints.open({ kind: 'turn', sessionId, fromId: range.fromId, ...(range.toId ? { toId: range.toId } : {}), title: 'Changes in this turn' })}
      data-testid="review-turn"
    >
      Review changes{range.files !== null ? ` · ${range.files} file${range.files === 1 ? '' : 's'}` : ''}
    </button>
  )
}
