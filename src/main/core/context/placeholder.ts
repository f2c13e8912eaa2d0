import type { PartOf } from '@shared/schema/session'

/**
 * What the model reads for a tool call. Kept free of other imports: the transcript
 * builder in the agent module uses it, and the context module builds on that
 * transcript builder.
 */

export const INTERRUPTED_OUTPUT = 'interrupted: this tool call did not finish (the turn was stopped)'

export function isPruned(part: PartOf<'tool'>): boolean {
  return part.state.compactedAt !== undefined
}

/** Sent instead of an output pruned to save context; names the call so the model can repeat it. */
export function prunedOutput(part: PartOf<'tool'>): string {
  const what = part.state.title ? `${part.tool} (${part.state.title})` : part.tool
  return `[output of this ${what} call was cleared to save context; call the tool again if you need it]`
}

/** The result text the model is sent for a stored tool call, whatever state it is in. */
export function toolOutputForModel(part: PartOf<'tool'>): string {
  const { state } = part
  if (state.status === 'completed') return isPruned(part) ? prunedOutput(part) : (state.output ?? '')
  if (state.status === 'error') return state.error ?? 'error'
  return INTERRUPTED_OUTPUT
}
