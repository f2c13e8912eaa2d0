import { useEffect, useMemo } from 'react'
import { useStore } from 'zustand'
import type { Checkpoint } from '@shared/schema/checkpoint'
import type { ChatController } from '../../stores/chat'
import type { ReviewRange } from './review-store'

export interface TurnRange {
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

/**
 * The review of the active session's latest turn that changed files (the one
 * running included, up to its last step): what the editor and the bar above the
 * composer show as the agent's changes waiting for a decision.
 */
export function useLatestTurnReview(chat: ChatController): ReviewRange | null {
  const sessionId = useStore(chat.store, (s) => s.activeSessionId)
  const order = useStore(chat.store, (s) => (sessionId ? s.transcripts[sessionId]?.order : undefined))
  const infos = useStore(chat.store, (s) => (sessionId ? s.transcripts[sessionId]?.infos : undefined))
  const list = useStore(chat.checkpoints.store, (s) => (sessionId ? s.bySession[sessionId] : undefined))
  useEffect(() => {
    if (sessionId) chat.checkpoints.ensure(sessionId)
  }, [chat, sessionId])
  const key = useMemo(() => {
    if (!sessionId || !order || !infos) return null
    // The latest turns that changed files: a question asked after an edit leaves that edit's review up.
    let end = order.length
    let looked = 0
    for (let i = order.length - 1; i >= 0 && looked < TURNS_LOOKED_AT; i--) {
      const id = order[i]
      if (!id || infos[id]?.role !== 'user') continue
      looked++
      const found = turnRange(list, id, order.slice(i + 1, end))
      if (found) return `${found.fromId} ${found.toId}`
      end = i
    }
    return null
  }, [sessionId, order, infos, list])
  return useMemo(() => {
    if (!key || !sessionId) return null
    const [fromId = '', toId = ''] = key.split(' ')
    return { sessionId, fromId, toId }
  }, [key, sessionId])
}

/** How many turns back the editor looks for changes not yet reviewed. */
const TURNS_LOOKED_AT = 3
