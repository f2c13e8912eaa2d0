import { z } from 'zod'
import { toErrorData } from '@shared/errors'
import type { DoomLoopTracker } from '../permission/doom-loop'
import { Permission } from '../permission/names'
import { PermissionErrorNames } from '../permission/errors'
import { ToolErrorNames } from './errors'
import { withFileLocks } from './fs/file-lock'
import type { Tool, ToolAttachment, ToolContext } from './tool'
import { truncateForModel, type TruncateLimits } from './truncate'

/** The outcome of one tool call: `output` goes to the model, `metadata` to the UI. */
export interface ToolResult {
  title: string
  output: string
  metadata: Record<string, unknown> & { truncated?: boolean; outputPath?: string }
  attachments?: ToolAttachment[]
  /** Files the call wrote, as the tool reported them. */
  changedPaths?: string[]
  /**
   * Set when the call failed; `output` then holds the message for the model. The loop
   * stops the turn on `PermissionRejected` without `feedback`.
   */
  error?: { name: string; message: string; feedback?: string }
  durationMs: number
}

export interface RunToolOptions {
  limits?: TruncateLimits
  /** Shared per session (or per loop); enables the doom-loop ask. */
  doomLoop?: DoomLoopTracker
  now?: () => number
}

/** Zod issues as lines a model can act on, e.g. `- edits.0.oldString: expected string, received undefined`. */
export function formatZodIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(arguments)'
      return `- ${path}: ${issue.message}`
    })
    .join('\n')
}

function schemaHint(tool: Tool): string {
  try {
    return JSON.stringify(tool.inputSchema ?? z.toJSONSchema(tool.parameters))
  } catch (error) {
    return `(schema unavailable: ${(error as Error).message})`
  }
}

/** A failed result with a message for the model. */
export function errorResult(title: string, name: string, message: string, durationMs = 0, extra: { feedback?: string } = {}): ToolResult {
  return {
    title,
    output: message,
    metadata: { error: true },
    error: { name, message, ...(extra.feedback ? { feedback: extra.feedback } : {}) },
    durationMs,
  }
}

/** Renames alias keys of an arguments object to the tool's own names (an argument given under both keeps ours). */
function renameAliases(input: unknown, aliases: Readonly<Record<string, string>> | undefined): unknown {
  if (!aliases || typeof input !== 'object' || input === null || Array.isArray(input)) return input
  const out: Record<string, unknown> = { ...(input as Record<string, unknown>) }
  for (const [alias, name] of Object.entries(aliases)) {
    if (!Object.hasOwn(out, alias)) continue
    if (!Object.hasOwn(out, name)) out[name] = out[alias]
    delete out[alias]
  }
  return out
}

/**
 * The absolute paths a call of `tool` will write, known from its arguments before it runs (its
 * `lockPaths`, or none when it `writesNothing`); `undefined` when the tool cannot say. Arguments
 * that do not validate write nothing.
 */
export async function plannedWrites(tool: Tool, input: unknown, root: string): Promise<string[] | undefined> {
  const knows = tool.writesNothing !== undefined || (tool.lockPaths !== undefined && tool.mutatesFiles === true)
  if (!knows) return undefined
  const parsed = tool.parameters.safeParse(renameAliases(input ?? {}, tool.argumentAliases))
  if (!parsed.success) return []
  if (tool.writesNothing && (await tool.writesNothing(parsed.data, { root }))) return []
  return tool.lockPaths && tool.mutatesFiles === true ? tool.lockPaths(parsed.data, { root }) : undefined
}

/**
 * Runs one tool call the way the loop needs it, never throwing: re-validates the
 * arguments (bad arguments come back as a message listing what to fix), raises a
 * doom-loop ask on the third identical call in a row, times the call, turns any
 * failure into a message for the model and truncates long output (the full text
 * is saved under `ctx.outputDir`).
 */
export async function runTool(tool: Tool, input: unknown, ctx: ToolContext, options: RunToolOptions = {}): Promise<ToolResult> {
  const now = options.now ?? Date.now
  const started = now()
  const elapsed = (): number => now() - started
  const parsed = tool.parameters.safeParse(renameAliases(input ?? {}, tool.argumentAliases))
  if (!parsed.success) {
    const message =
      `Invalid arguments for tool "${tool.id}":\n${formatZodIssues(parsed.error)}\n` +
      `Expected arguments (JSON schema): ${schemaHint(tool)}\nFix the arguments and call the tool again.`
    return errorResult(tool.id, ToolErrorNames.InvalidArguments, message, elapsed())
  }
  try {
    ctx.signal.throwIfAborted()
    if (options.doomLoop?.record(ctx.sessionId, tool.id, parsed.data)) {
      await ctx.ask({
        permission: Permission.DoomLoop,
        patterns: [tool.id],
        always: [tool.id],
        title: `"${tool.id}" was called several times in a row with the same input`,
        metadata: { tool: tool.id, input: parsed.data },
      })
    }
    const locked = tool.lockPaths?.(parsed.data, ctx) ?? []
    const out = await withFileLocks(locked, () => {
      ctx.signal.throwIfAborted()
      return tool.execute(parsed.data, ctx)
    })
    ctx.signal.throwIfAborted()
    const direction = tool.truncate ?? 'head'
    const cut = truncateForModel(out.output, { direction, outputDir: ctx.outputDir, callId: ctx.callId, limits: options.limits, ...(out.saved ? { saved: out.saved } : {}) })
    const metadata = {
      ...out.metadata,
      ...(cut.truncated ? { truncated: true, ...(cut.outputPath ? { outputPath: cut.outputPath } : {}) } : {}),
      ...(cut.truncated && out.saved ? { outputBytes: out.saved.bytes, outputComplete: out.saved.complete } : {}),
    }
    return {
      title: out.title,
      output: cut.output,
      metadata,
      ...(out.attachments ? { attachments: out.attachments } : {}),
      ...(out.changedPaths ? { changedPaths: out.changedPaths } : {}),
      durationMs: elapsed(),
    }
  } catch (error) {
    return failure(tool.id, error, ctx, elapsed())
  }
}

function failure(title: string, error: unknown, ctx: ToolContext, durationMs: number): ToolResult {
  if (ctx.signal.aborted) {
    return errorResult(title, ToolErrorNames.Aborted, 'The call was aborted by the user before it finished.', durationMs)
  }
  const data = toErrorData(error)
  const feedback = typeof data.data.feedback === 'string' ? data.data.feedback : undefined
  if (data.name === PermissionErrorNames.Rejected || data.name === PermissionErrorNames.Denied) {
    return errorResult(title, data.name, data.data.message, durationMs, feedback ? { feedback } : {})
  }
  if (data.name === ToolErrorNames.ToolError) return errorResult(title, data.name, data.data.message, durationMs)
  // An unexpected failure: still a message, never an exception for the loop.
  return errorResult(title, data.name, `Error: ${data.data.message}`, durationMs)
}
