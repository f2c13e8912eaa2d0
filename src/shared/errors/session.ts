import { z } from 'zod'
import { defineError } from './define'

/** Failures of sessions and their turns. */
export const SessionErrors = {
  SessionNotFound: defineError('SessionNotFound', { sessionId: z.string() }),
  /** A turn of this session runs already, in this or another process (`hotaru run` exits 5). */
  SessionBusy: defineError('SessionBusy', { sessionId: z.string().optional(), pid: z.number().optional() }),
  /** A turn runs in one of the project's sessions, in this or another process. */
  ProjectBusy: defineError('ProjectBusy', { sessionId: z.string() }),
  /** The app stopped during the turn (found on the next start). */
  Interrupted: defineError('Interrupted', {}),
  /** The turn ended before it added the user's message (it was stopped, or its session deleted). */
  TurnNotStarted: defineError('TurnNotStarted', {}),
  /** The turn stopped for a reason other than Stop (the project closed, the session was deleted). */
  TurnCancelled: defineError('TurnCancelled', {}),
  /** A `UserPromptSubmit` hook refused the message. */
  PromptBlocked: defineError('PromptBlocked', {}),
  /** A hook of the turn (checkpoints, user hooks, diagnostics, titles, compaction) failed at one of its points. */
  TurnHookFailed: defineError('TurnHookFailed', { point: z.string(), hook: z.string() }),
  /** A subagent's turn failed; its error is in the message. */
  SubagentFailed: defineError('SubagentFailed', { agent: z.string().optional(), sessionId: z.string().optional() }),
  /** The prompt names an agent that no config defines. */
  AgentNotFound: defineError('AgentNotFound', { agent: z.string() }),
  /** The chat has no session to send to (the renderer's own refusal). */
  NoSession: defineError('NoSession', {}),
  /** The user dismissed a question of the agent. */
  QuestionDismissed: defineError('QuestionDismissed', {}),
  /** A question was withdrawn (its turn ended). */
  QuestionCancelled: defineError('QuestionCancelled', {}),
} as const

/** Failures of compaction (summarizing a session's older messages). */
export const ContextErrors = {
  /** There is nothing (or nothing new) to summarize. */
  NothingToCompact: defineError('NothingToCompact', { messageId: z.string().optional() }),
  /** The summary could not be written (empty answer, or the input never fit). */
  CompactionFailed: defineError('CompactionFailed', {}),
  /** A manual compaction was asked for while a turn of the session runs. */
  CompactionBusy: defineError('CompactionBusy', {}),
} as const
