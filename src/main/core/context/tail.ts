import type { MessageWithParts } from '@shared/schema/session'
import { PROTECTED_TURNS } from './prune'
import { messageTokens } from './tokens'

/** The verbatim tail after an automatic compaction takes at most this share of the usable window… */
export const TAIL_SHARE = 0.25
/** …and never more than this, so a summary really frees room on large models. */
export const TAIL_MAX_TOKENS = 50_000

/**
 * How many of the view's messages an automatic compaction summarizes: the rest
 * (the last `PROTECTED_TURNS` user turns, as far as they fit the tail budget) stays
 * verbatim. A turn too large for the budget is cut between stored messages, which
 * keeps every tool call with its result.
 */
export function coveredCount(tail: readonly MessageWithParts[], usable: number, protectedTurns = PROTECTED_TURNS): number {
  const budget = Math.min(TAIL_MAX_TOKENS, Math.floor(usable * TAIL_SHARE))
  let used = 0
  let turns = 0
  let start = tail.length
  for (let i = tail.length - 1; i >= 0; i--) {
    const message = tail[i] as MessageWithParts
    const tokens = messageTokens(message)
    if (used + tokens > budget) break
    used += tokens
    start = i
    if (message.info.role === 'user' && ++turns >= protectedTurns) break
  }
  if (start > 0) return start
  // Everything would stay, yet the provider counted an overflow (the estimate is low):
  // summarize up to the newest user turn, or everything when there is only one.
  for (let i = tail.length - 1; i > 0; i--) if ((tail[i] as MessageWithParts).info.role === 'user') return i
  return tail.length
}
