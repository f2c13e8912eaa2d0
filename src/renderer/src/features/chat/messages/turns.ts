import type { Message, Usage } from '@shared/schema/session'
import { addUsage, ZERO_USAGE } from '../format'

export interface TurnSummary {
  /** The user message that started the turn (its checkpoint is the turn's "before"). */
  userMessageId: string | null
  /** The turn's assistant messages (their step checkpoints are its "after"). */
  messageIds: string[]
  usage: Usage
  cost: number
  steps: number
  durationMs: number
  model: string
}

export interface TurnLayout {
  /** Usage of each finished turn, keyed by the turn's last assistant message. */
  summaries: Map<string, TurnSummary>
  /** Index in `order` where the latest turn begins. */
  lastTurnStart: number
  /** Usage of the latest step that reported one: what the context holds now. */
  lastUsage: Usage | null
}

/** Groups messages into turns (a user message and the assistant steps after it). */
export function layoutTurns(order: readonly string[], infos: Record<string, Message>): TurnLayout {
  const summaries = new Map<string, TurnSummary>()
  let lastTurnStart = 0
  let lastUsage: Usage | null = null
  let turn: { start: number; user: string | null; ids: string[]; usage: Usage; cost: number; steps: number; last: Message | null } | null = null
  const close = (): void => {
    if (!turn?.last?.completedAt) return
    summaries.set(turn.last.id, {
      userMessageId: turn.user,
      messageIds: turn.ids,
      usage: turn.usage,
      cost: turn.cost,
      steps: turn.steps,
      durationMs: turn.last.completedAt - turn.start,
      model: turn.last.model,
    })
  }
  order.forEach((id, index) => {
    const info = infos[id]
    if (!info) return
    if (info.role === 'user') {
      close()
      turn = { start: info.createdAt, user: info.id, ids: [], usage: ZERO_USAGE, cost: 0, steps: 0, last: null }
      lastTurnStart = index
      return
    }
    turn ??= { start: info.createdAt, user: null, ids: [], usage: ZERO_USAGE, cost: 0, steps: 0, last: null }
    turn.last = info
    turn.ids.push(info.id)
    if (info.usage && info.usage.input + info.usage.output + info.usage.cacheRead + info.usage.cacheWrite > 0) {
      turn.usage = addUsage(turn.usage, info.usage)
      turn.steps++
      lastUsage = info.usage
    }
    turn.cost += info.cost ?? 0
  })
  close()
  return { summaries, lastTurnStart, lastUsage }
}
