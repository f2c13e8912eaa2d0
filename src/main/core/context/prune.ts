import type { MessageWithParts, PartOf } from '@shared/schema/session'
import { isPruned, prunedOutput } from './placeholder'
import { estimateTokens } from './tokens'

/** The newest tool output, up to this many tokens, is always kept. */
export const PRUNE_PROTECT_TOKENS = 40_000
/** Below this gain a prune is not worth losing the outputs (and the provider's prompt cache). */
export const PRUNE_MINIMUM_TOKENS = 20_000
/** The newest user turns are kept whole. */
export const PROTECTED_TURNS = 2
/** Outputs that carry instructions the model keeps following (a skill's text) are never pruned. */
export const UNPRUNABLE_TOOLS: ReadonlySet<string> = new Set(['skill'])

export interface PruneOptions {
  protectTokens?: number
  minimumTokens?: number
  protectedTurns?: number
}

export interface PruneSelection {
  /** Outputs to replace with a placeholder, newest first. */
  parts: PartOf<'tool'>[]
  freedTokens: number
  /** True when the gain reaches the minimum; only then is the selection applied. */
  worthIt: boolean
}

/**
 * Chooses old tool outputs to prune (no model call). Walks from the newest message
 * back: the last `protectedTurns` user turns are left alone, then the newest
 * `protectTokens` of tool output are kept and everything older is selected.
 * Already pruned outputs, failed calls and unprunable tools are skipped.
 */
export function selectPrune(tail: readonly MessageWithParts[], options: PruneOptions = {}): PruneSelection {
  const protect = options.protectTokens ?? PRUNE_PROTECT_TOKENS
  const minimum = options.minimumTokens ?? PRUNE_MINIMUM_TOKENS
  const protectedTurns = options.protectedTurns ?? PROTECTED_TURNS
  const parts: PartOf<'tool'>[] = []
  let turns = 0
  let seen = 0
  let freed = 0
  for (let i = tail.length - 1; i >= 0; i--) {
    const message = tail[i] as MessageWithParts
    if (message.info.role === 'user') {
      turns++
      continue
    }
    if (turns < protectedTurns) continue
    for (let j = message.parts.length - 1; j >= 0; j--) {
      const part = message.parts[j]
      if (part?.type !== 'tool' || part.state.status !== 'completed' || isPruned(part)) continue
      if (UNPRUNABLE_TOOLS.has(part.tool)) continue
      const tokens = estimateTokens(part.state.output ?? '')
      seen += tokens
      if (seen <= protect) continue
      // The placeholder costs a little too; an output smaller than it stays.
      const gain = tokens - estimateTokens(prunedOutput(part))
      if (gain <= 0) continue
      parts.push(part)
      freed += gain
    }
  }
  return { parts, freedTokens: freed, worthIt: freed >= minimum && parts.length > 0 }
}
