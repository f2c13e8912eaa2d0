import type { ContextManager } from '../../context'
import type { TurnFeature } from '../turn-features'

/**
 * Compaction after a step: its real usage says whether the context overflowed; then old tool output is pruned
 * or the session summarized before the next request. (Each request is also fitted to the window as it is
 * built, in the loop: that is how the request is made, not a feature joining the turn.) A step that failed,
 * was stopped or overflowed (answered again after compaction) is not measured.
 */
export function compactionFeature(context: ContextManager): TurnFeature {
  return {
    'step.didEnd': async ({ turn, message, status }) => {
      if (status === 'aborted' || status === 'error' || status === 'rejected' || status === 'overflow') return undefined
      await context.afterStep({ sessionId: turn.session.id, model: turn.model, usage: message.usage, signal: turn.signal, providerSettings: turn.env.providerSettings })
      return undefined
    },
  }
}
