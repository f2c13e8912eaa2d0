import { HotaruError, toErrorData, type ErrorData } from '@shared/errors'
import { ProviderErrorNames, type FinishReason } from '../provider'

/**
 * What the loop does with each way a step can end (see docs/decisions/stop-reasons.md).
 * Every recovery is bounded per turn by `TurnRecovery`, so no provider answer makes a turn loop.
 */

/** Pause continuations of one turn (Anthropic `pause_turn`: server tools running long). */
export const MAX_PAUSE_CONTINUATIONS = 8
/** New requests after a stream broke off behind completed tool calls. */
export const MAX_STREAM_RESUMES = 3

/** What a turn has already spent on recoveries. */
export interface TurnRecovery {
  /** A cut-off text answer was continued once. */
  textContinued: boolean
  /** The current step was already retried after compaction because the context overflowed. */
  overflowRetried: boolean
  pauses: number
  resumes: number
}

export function freshRecovery(): TurnRecovery {
  return { textContinued: false, overflowRetried: false, pauses: 0, resumes: 0 }
}

/**
 * How a finished step ended: `finish` is stored on its message (the provider's reason, or
 * `interrupted` for a stream that broke off behind completed calls), `status` steers the loop.
 */
export type StepVerdict =
  | { status: 'continue'; finish: string }
  | { status: 'completed' | 'refused' | 'truncated' | 'rejected'; finish: string; note?: string }
  | { status: 'error'; finish: 'error'; error: ErrorData }
  | { status: 'overflow'; finish: 'context_window' }

export interface StepFacts {
  finish: FinishReason
  /** The provider's explanation of the stop (a refusal's), when it gave one. */
  detail?: string
  failure?: unknown
  /** Tool calls of the step (run or not). */
  toolCalls: number
  /** Calls that started running. */
  startedCalls: number
  /** A tool asked to end the turn (a rejected permission). */
  stopTurn: boolean
  /** A tool ended the turn with this error. */
  stopError?: ErrorData
  /** The step wrote answer text. */
  hasText: boolean
}

function isNamed(error: unknown, name: string): error is HotaruError {
  return error instanceof HotaruError && error.name === name
}

/** Decides how the loop goes on after a step that was not aborted. Spends from `recovery`. */
export function judgeStep(facts: StepFacts, recovery: TurnRecovery): StepVerdict {
  const { failure } = facts
  if (failure !== undefined) {
    if (isNamed(failure, ProviderErrorNames.ContextOverflow) && !recovery.overflowRetried) {
      recovery.overflowRetried = true
      return { status: 'overflow', finish: 'context_window' }
    }
    if (isNamed(failure, ProviderErrorNames.ContextOverflow)) {
      return { status: 'error', finish: 'error', error: overflowAgain(failure.toData()) }
    }
    // Nothing was lost: the completed calls ran and are stored; a new request resumes from them.
    const partial = isNamed(failure, ProviderErrorNames.ProviderStreamInterrupted) && failure.data.partial === true
    if (partial && facts.startedCalls > 0 && recovery.resumes < MAX_STREAM_RESUMES) {
      recovery.resumes++
      return { status: 'continue', finish: 'interrupted' }
    }
    return { status: 'error', finish: 'error', error: toErrorData(failure) }
  }
  if (facts.stopError) return { status: 'error', finish: 'error', error: facts.stopError }
  if (facts.stopTurn) return { status: 'rejected', finish: facts.finish }
  if (facts.finish === 'refusal') {
    const note = facts.detail ? `Declined: ${facts.detail}` : facts.hasText ? undefined : 'The model declined to answer this request.'
    return { status: 'refused', finish: facts.finish, note }
  }
  if (facts.finish === 'content_filter') {
    return { status: 'refused', finish: facts.finish, note: facts.hasText ? undefined : "The provider's content filter withheld the answer." }
  }
  if (facts.finish === 'context_window' && facts.startedCalls === 0) {
    if (recovery.overflowRetried) {
      return { status: 'error', finish: 'error', error: overflowAgain(undefined) }
    }
    recovery.overflowRetried = true
    return { status: 'overflow', finish: 'context_window' }
  }
  if (facts.finish === 'pause') {
    if (recovery.pauses < MAX_PAUSE_CONTINUATIONS) {
      recovery.pauses++
      return { status: 'continue', finish: facts.finish }
    }
    return {
      status: 'completed',
      finish: facts.finish,
      note: `The provider paused this turn ${MAX_PAUSE_CONTINUATIONS + 1} times in a row; send a message to let it continue.`,
    }
  }
  if (facts.toolCalls > 0) return { status: 'continue', finish: facts.finish }
  if (facts.finish === 'length') {
    if (recovery.textContinued) return { status: 'truncated', finish: facts.finish }
    recovery.textContinued = true
    return { status: 'continue', finish: facts.finish }
  }
  return { status: 'completed', finish: facts.finish }
}

function overflowAgain(cause: ErrorData | undefined): ErrorData {
  const detail = cause ? ` (${cause.data.message})` : ''
  return {
    name: ProviderErrorNames.ContextOverflow,
    data: {
      ...cause?.data,
      message: `The conversation does not fit the model's context window even after compacting it${detail}. Start a new session or switch to a model with a larger window.`,
    },
  }
}

/** The error result of a tool call whose arguments the output limit cut off. */
export function cutCallMessage(tool: string, maxTokens: number): string {
  return (
    `Your call to ${tool} was cut off at the output limit of ${maxTokens} tokens, so it did not run. ` +
    'Split the content into smaller pieces: write the first part, then add the rest with further calls.'
  )
}

/** The same, when the context window (not the output limit) ended the answer. */
export function cutByWindowMessage(tool: string): string {
  return `Your call to ${tool} was cut off because the context window filled up, so it did not run. Send it again after the context was compacted.`
}
