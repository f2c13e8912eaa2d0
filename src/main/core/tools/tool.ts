import type { z } from 'zod'
import type { QuestionItem } from '@shared/ipc/question'
import type { PermissionAction } from '../permission/rule'
import type { PermissionAsk } from '../permission/service'
import type { WebSearchOutcome, WebSearchRequest } from '../provider'
import type { CommandSandbox } from '../sandbox/sandbox'
import type { BackgroundProcesses } from './bash/background'
import type { FileTimes } from './file-times'
import type { TodoStore } from './todos'

/** One question of the `question` tool, as the UI shows it (the wire type). */
export type Question = z.infer<typeof QuestionItem>

/** A choice offered by the `question` tool. */
export type QuestionOption = Question['options'][number]

/** The labels chosen for one question, or the user's own text as a single entry. */
export type QuestionAnswer = string[]

export interface SubagentRequest {
  agent: string
  prompt: string
  description: string
}

/** Progress a running tool reports (bash output while it runs); merged into the tool part by the loop. */
export interface ToolProgress {
  title?: string
  metadata?: Record<string, unknown>
}

/**
 * Everything a tool may use. The agent loop builds one per call; tools never reach
 * for globals. `ask` is already bound to the session, agent and ruleset.
 */
export interface ToolContext {
  /** Canonical (symlink-resolved) project root. */
  root: string
  projectId: string
  sessionId: string
  messageId: string
  callId: string
  agent: string
  signal: AbortSignal
  /** Resolves when allowed; rejects with `PermissionDeniedError` or `PermissionRejectedError`. */
  ask(request: PermissionAsk): Promise<void>
  metadata(progress: ToolProgress): void
  fileTimes: FileTimes
  todos: TodoStore
  question(questions: Question[]): Promise<QuestionAnswer[]>
  /** Runs a subagent in a child session and returns its final text. */
  runSubagent(request: SubagentRequest): Promise<string>
  /** Switches the session's agent for the following steps (plan_enter / plan_exit). */
  switchAgent(agent: string): void
  /** The project's background processes (bash `background: true`). */
  background: BackgroundProcesses
  /** Where truncated outputs are saved; the read tool reads there without an external-directory ask. */
  outputDir: string
  /** The `shell` config setting, when set. */
  shell?: string
  /** Variables commands get on top of the shell's environment (a worktree's `HOTARU_PORT`, `HOTARU_PORTS`). */
  env?: Readonly<Record<string, string>>
  /** The decision for an ask without asking anyone (sandbox `autoAllow` turns an ask into allow, never a deny). */
  check?(request: PermissionAsk): Promise<PermissionAction>
  /** The OS sandbox commands run in, when `sandbox.enabled` is on. */
  sandbox?: CommandSandbox
  /** Patterns of the rules in effect that deny `permission` (the websearch tool blocks those domains at the provider). */
  denyPatterns?(permission: string): string[]
  /** A web search by the session's model with its provider's server tool; absent when that provider has none. */
  webSearch?(request: Omit<WebSearchRequest, 'model' | 'settings'>): Promise<WebSearchOutcome>
}

export interface ToolAttachment {
  type: 'image'
  mediaType: string
  /** base64 */
  data: string
  filename?: string
}

/** What `execute` returns. */
export interface ToolOutput<M extends Record<string, unknown> = Record<string, unknown>> {
  title: string
  output: string
  metadata: M
  attachments?: ToolAttachment[]
  /** Files the call wrote (absolute or project-relative): the step's checkpoint visits exactly these. */
  changedPaths?: string[]
  /**
   * The tool saved its whole output itself, as it streamed (bash): truncation then reports these totals and
   * this file instead of saving the part held in memory as if it were all. `output` ends with `trailer`.
   */
  saved?: SavedOutput & { trailer: string }
}

/** A tool's whole output saved to a file while it streamed, and whether that copy is all of it. */
export interface SavedOutput {
  path: string
  /** Bytes the command wrote. */
  bytes: number
  lines: number
  /** Bytes in the file. */
  savedBytes: number
  complete: boolean
  /** Why the copy is not complete (a full disk, the size cap). */
  reason?: string
}

/** Which end of a long output to keep for the model; the whole output is saved to a file either way. */
export type TruncateDirection = 'head' | 'tail'

export interface ToolDef<P extends z.ZodType = z.ZodType> {
  id: string
  description: string
  parameters: P
  execute(args: z.infer<P>, ctx: ToolContext): Promise<ToolOutput>
  /** Default `head`; bash keeps the tail. */
  truncate?: TruncateDirection
  /** A JSON schema to send instead of the one generated from `parameters` (e.g. an MCP tool's own). */
  inputSchema?: Record<string, unknown>
  /** Argument names models commonly send instead of ours (`file_path` for `filePath`); renamed before validation. */
  argumentAliases?: Readonly<Record<string, string>>
  /**
   * The files a call changes, known from its arguments before it runs: calls sharing one run one
   * after another (see `withFileLocks`), and the first checkpoint of a message need not be
   * complete before it runs (their pre-images are kept instead; see `CheckpointService.beforeWrite`).
   */
  lockPaths?(args: z.infer<P>, ctx: Pick<ToolContext, 'root'>): string[]
  /**
   * Whether a call may change files in the project. `false`: never (no checkpoint work after it,
   * and it need not wait for the message's first checkpoint). `true` or unset (custom and MCP
   * tools): it may; calls that list what they wrote (`changedPaths`) get an incremental checkpoint.
   */
  mutatesFiles?: boolean
  /** Whether this call provably changes no file although the tool may (a shell line of known readers). */
  writesNothing?(args: z.infer<P>, ctx: Pick<ToolContext, 'root'>): Promise<boolean>
}

/** A tool whose argument and metadata types are erased, as registries hold them. */
export interface Tool {
  id: string
  description: string
  parameters: z.ZodType
  execute(args: unknown, ctx: ToolContext): Promise<ToolOutput>
  truncate?: TruncateDirection
  inputSchema?: Record<string, unknown>
  argumentAliases?: Readonly<Record<string, string>>
  lockPaths?(args: unknown, ctx: Pick<ToolContext, 'root'>): string[]
  mutatesFiles?: boolean
  writesNothing?(args: unknown, ctx: Pick<ToolContext, 'root'>): Promise<boolean>
}

/** Whether calls of `tool` may change files: unknown counts as yes. */
export function mayMutateFiles(tool: Pick<Tool, 'mutatesFiles'> | undefined): boolean {
  return tool?.mutatesFiles !== false
}

/** Tools are data: an id, a description for the model, zod parameters and `execute`. */
export function defineTool<P extends z.ZodType>(def: ToolDef<P>): Tool {
  return def as unknown as Tool
}
