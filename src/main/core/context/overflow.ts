import type { ModelInfo } from '../provider'

/** At most this much of the window is held back for the model's answer. */
export const MAX_RESERVE_TOKENS = 20_000

export interface ContextBudget {
  context: number
  reserve: number
  /** What a request may fill before it counts as overflowing: context − reserve. */
  usable: number
}

/**
 * The usable window of a model: its context limit minus room for the answer
 * (min(20k, the model's output limit)). The reserve never takes more than half the
 * window, so a small model whose output limit equals its context still has room.
 */
export function contextBudget(limit: ModelInfo['limit']): ContextBudget {
  const reserve = Math.min(MAX_RESERVE_TOKENS, limit.output, Math.floor(limit.context / 2))
  return { context: limit.context, reserve, usable: limit.context - reserve }
}

export function isOverflow(tokens: number, budget: ContextBudget): boolean {
  return tokens > budget.usable
}
