import type { MessageWithParts } from '@shared/schema/session'
import { ProviderErrorNames } from '../provider'
import { messageChars, messageTokens, tokensFromChars, toolResultChars, usageTotal } from './tokens'
import { type ContextView, summaryText } from './window'

export interface ViewMeasure {
  tokens: number
  /** `usage`: the last step's real count plus an estimate of what came after it; `estimate`: all estimated. */
  source: 'usage' | 'estimate'
}

/** A step whose reported usage describes the current context for `model`. */
function isAnchor(message: MessageWithParts, model: string): boolean {
  const { info } = message
  return (
    info.role === 'assistant' &&
    info.model === model &&
    info.completedAt !== undefined &&
    info.error === undefined &&
    info.usage !== undefined &&
    usageTotal(info.usage) > 0
  )
}

/** Newest time a tool output in the view was pruned (0 when none was). */
function latestPrune(view: ContextView): number {
  let latest = 0
  for (const message of view.tail) {
    for (const part of message.parts) {
      if (part.type === 'tool' && part.state.compactedAt !== undefined && part.state.compactedAt > latest) latest = part.state.compactedAt
    }
  }
  return latest
}

/**
 * Tokens the request for this view will take. The provider's count of the last
 * step is exact for everything up to that step's answer, so it is used when it is
 * still valid (same model, after the active compaction, nothing pruned since) and
 * only the tool results and messages after it are estimated; otherwise the whole
 * request (system prompt and tool schemas included) is estimated.
 */
export function measureView(view: ContextView, model: string, overheadChars: number): ViewMeasure {
  const { tail } = view
  let anchor = -1
  for (let i = tail.length - 1; i >= view.freshFrom; i--) {
    if (isAnchor(tail[i] as MessageWithParts, model)) {
      anchor = i
      break
    }
  }
  const anchored = tail[anchor]
  // A prune in the same millisecond as the step's end still came after it.
  if (anchored?.info.usage && (anchored.info.completedAt ?? 0) > latestPrune(view)) {
    let chars = 0
    for (const part of anchored.parts) if (part.type === 'tool') chars += toolResultChars(part)
    let tokens = usageTotal(anchored.info.usage) + tokensFromChars(chars)
    for (let i = anchor + 1; i < tail.length; i++) tokens += messageTokens(tail[i] as MessageWithParts)
    return { tokens, source: 'usage' }
  }
  let chars = overheadChars + (view.compaction ? summaryText(view.compaction.part.summary).length : 0)
  for (const message of tail) chars += messageChars(message)
  return { tokens: tokensFromChars(chars), source: 'estimate' }
}

/**
 * The newest step failed because the provider found the prompt too long, or stopped because
 * the context window filled up while the model wrote: our count was low.
 */
export function lastStepOverflowed(view: ContextView): boolean {
  for (let i = view.tail.length - 1; i >= view.freshFrom; i--) {
    const { info } = view.tail[i] as MessageWithParts
    if (info.role === 'assistant') return info.error?.name === ProviderErrorNames.ContextOverflow || info.finish === 'context_window'
  }
  return false
}
