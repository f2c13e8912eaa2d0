import type { ErrorData } from '@shared/errors'
import type { EnforcedRules } from '../permission/policy'
import type { ProviderSettings, ToolDefinition } from '../provider'
import type { AgentInfo } from './agents'

export interface ToolCallRequest {
  callId: string
  name: string
  input: unknown
}

export interface ToolCallContext {
  projectRoot: string
  sessionId: string
  messageId: string
  agent: AgentInfo
  /** The turn's model: it decides which edit tools exist, and a web search runs on it with these provider settings. */
  model?: string
  providerSettings?: ProviderSettings
  signal: AbortSignal
  /** Live progress for the UI (e.g. shell output while it runs). */
  progress(update: { title?: string; metadata?: Record<string, unknown> }): void
}

export interface ToolOutcome {
  /** What the model reads. */
  output: string
  /** Short label for the UI (e.g. the path or the command). */
  title?: string
  /** Structured facts for the UI: diffs, exit codes, truncation. */
  metadata?: Record<string, unknown>
  isError: boolean
  /** The user rejected the call without feedback: the turn stops after this step. */
  stopTurn?: boolean
  /** Ends the turn as failed with this error after the step (the project folder vanished, say). */
  stopError?: ErrorData
  /** Files the call wrote, when the tool lists them (edit, write, multiedit, apply_patch). */
  changedPaths?: string[]
}

/** What the agent loop needs from the tool layer. */
export interface ToolHost {
  /** The tools offered to `model` (its edit family, web search where its provider has it; all edit tools when no model is named). */
  definitions(agent: AgentInfo, model?: string, settings?: ProviderSettings): ToolDefinition[]
  execute(call: ToolCallRequest, ctx: ToolCallContext): Promise<ToolOutcome>
  /** The permission rules a call of `agent` is checked against now (`permission/policy.ts`). */
  permissionRules?(agent: string): EnforcedRules
  /** Whether a call of tool `name` may change files (see `mutatesFiles`); absent: every tool may. */
  mutatesFiles?(name: string, agent: AgentInfo): boolean
  /** Called while a model request waits for its answer: loads what the tools need meanwhile. */
  warm?(): void
  /**
   * The absolute paths a call will write, when that is known before it runs and nothing else it
   * triggers (a hook) may write; `undefined`: unknown.
   */
  plannedWrites?(call: ToolCallRequest, agent: AgentInfo): Promise<string[] | undefined>
}
