import type { HookEvent, HooksConfig } from '../config/schema'
import type { CommandSandbox } from '../sandbox/sandbox'
import { runHookProcess, type HookProcessResult } from './hook-process'
import { errorMessage } from './types'

export const DEFAULT_HOOK_TIMEOUT_S = 60
/** The exit code with which a hook blocks the action (as in the widely used hooks format). */
export const HOOK_BLOCK_EXIT_CODE = 2
const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PostToolUse'])

export interface HookPayload {
  sessionId: string
  projectRoot: string
  /** The tool id (PreToolUse, PostToolUse); matched against each entry's `matcher`. */
  tool?: string
  input?: unknown
  output?: unknown
  /** The user's text (UserPromptSubmit). */
  prompt?: string
}

export interface HookRunOptions {
  cwd: string
  signal?: AbortSignal
  /** The hooks' environment; the user's login-shell environment is best. Default: this process's. */
  env?: NodeJS.ProcessEnv
  /** Hooks run inside the OS sandbox when it is on. */
  sandbox?: CommandSandbox
}

export interface HookFailure {
  command: string
  error: string
}

export interface HookRunResult {
  /** A hook exited with code 2, or printed `{"decision":"block"}`. */
  blocked: boolean
  /** Why, from the blocking hooks' stderr (or JSON `reason`); one line per blocking hook. */
  reason?: string
  /** Hooks that failed, timed out or could not run: to be shown, they do not block. */
  failures: HookFailure[]
  /** Text hooks gave back for the model (plain stdout, or JSON `additionalContext`). */
  outputs: string[]
}

interface Planned {
  command: string
  timeoutMs: number
}

/**
 * The commands to run for `event`. For tool events an entry's `matcher` is a regular
 * expression that must match the whole tool id (`edit|write` does not match
 * `multiedit`); empty or `*` matches every tool. Other events ignore the matcher.
 */
export function plannedHooks(hooks: HooksConfig | undefined, event: HookEvent, tool?: string): { planned: Planned[]; failures: HookFailure[] } {
  const planned: Planned[] = []
  const failures: HookFailure[] = []
  for (const entry of hooks?.[event] ?? []) {
    const matcher = entry.matcher?.trim() ?? ''
    if (TOOL_EVENTS.has(event) && matcher !== '' && matcher !== '*') {
      let regex: RegExp
      try {
        regex = new RegExp(`^(?:${matcher})$`)
      } catch (error) {
        for (const h of entry.hooks) failures.push({ command: h.command, error: `invalid matcher "${matcher}": ${errorMessage(error)}` })
        continue
      }
      if (tool === undefined || !regex.test(tool)) continue
    }
    for (const h of entry.hooks) {
      planned.push({ command: h.command, timeoutMs: (h.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000 })
    }
  }
  return { planned, failures }
}

/**
 * What a hook reads on stdin: our field names, plus the snake_case names of the
 * widely used format so hook scripts written for it (`jq .tool_input.command`) work.
 */
export function hookInput(event: HookEvent, payload: HookPayload): string {
  return JSON.stringify({
    event,
    ...payload,
    hook_event_name: event,
    session_id: payload.sessionId,
    cwd: payload.projectRoot,
    ...(payload.tool !== undefined ? { tool_name: payload.tool, tool_input: payload.input } : {}),
    ...(payload.output !== undefined ? { tool_response: payload.output } : {}),
  })
}

type Verdict = { kind: 'block'; reason: string } | { kind: 'ok'; output?: string } | { kind: 'failure'; error: string }

function jsonObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    // Not JSON after all: the whole stdout is plain text, which is allowed.
    return undefined
  }
}

function stringAt(obj: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = obj?.[key]
  return typeof value === 'string' ? value : undefined
}

/** Reads a successful hook's stdout: a block decision, context for the model, or nothing. */
function fromStdout(command: string, stdout: string): Verdict {
  const text = stdout.trim()
  const json = jsonObject(text)
  if (!json) return text === '' ? { kind: 'ok' } : { kind: 'ok', output: text }
  const specific = json.hookSpecificOutput !== null && typeof json.hookSpecificOutput === 'object' ? (json.hookSpecificOutput as Record<string, unknown>) : undefined
  if (json.decision === 'block' || specific?.permissionDecision === 'deny') {
    const reason = stringAt(json, 'reason') ?? stringAt(specific, 'permissionDecisionReason')
    return { kind: 'block', reason: reason?.trim() || `blocked by hook \`${command}\`` }
  }
  const context = stringAt(json, 'additionalContext') ?? stringAt(specific, 'additionalContext')
  return context ? { kind: 'ok', output: context } : { kind: 'ok' }
}

function tail(text: string, max = 500): string {
  const t = text.trim()
  return t.length > max ? `…${t.slice(-max)}` : t
}

export function verdictOf(command: string, result: HookProcessResult, timeoutMs: number): Verdict {
  const stderr = tail(result.stderr)
  const withStderr = (msg: string): string => (stderr ? `${msg}: ${stderr}` : msg)
  if (result.error) return { kind: 'failure', error: result.error }
  if (result.aborted) return { kind: 'failure', error: 'stopped: the action was aborted' }
  const left = result.processesLeft ? ` (some of its processes could not be ended: ${result.processesLeft})` : ''
  if (result.timedOut) return { kind: 'failure', error: `timed out after ${timeoutMs / 1000} s and was killed${left}` }
  if (result.code === HOOK_BLOCK_EXIT_CODE) {
    return { kind: 'block', reason: result.stderr.trim() || `blocked by hook \`${command}\` (exit code 2, no message on stderr)` }
  }
  if (result.code !== 0) return { kind: 'failure', error: withStderr(result.code === null ? `killed by ${result.signal ?? 'a signal'}` : `exit code ${result.code}`) }
  return fromStdout(command, result.stdout)
}

/**
 * Runs the hooks configured for `event`, all at once, and combines their answers.
 * Exit code 2 (or `{"decision":"block","reason":…}` on stdout) blocks, with the
 * hook's stderr (or reason) as the message; any other failure is reported in
 * `failures` and does not block. Each hook is killed, with what it started, after
 * its `timeout` seconds (default 60).
 */
export async function runHooks(hooks: HooksConfig | undefined, event: HookEvent, payload: HookPayload, options: HookRunOptions): Promise<HookRunResult> {
  const { planned, failures } = plannedHooks(hooks, event, payload.tool)
  const result: HookRunResult = { blocked: false, failures, outputs: [] }
  if (planned.length === 0) return result
  const input = hookInput(event, payload)
  const env = {
    ...(options.env ?? process.env),
    HOTARU_HOOK_EVENT: event,
    HOTARU_PROJECT_DIR: payload.projectRoot,
    HOTARU_SESSION_ID: payload.sessionId,
    // Hook scripts written for the widely used format find their files through this.
    CLAUDE_PROJECT_DIR: payload.projectRoot,
  }
  const verdicts = await Promise.all(
    planned.map(async (p) => {
      const run = await runHookProcess(p.command, input, { cwd: options.cwd, env, timeoutMs: p.timeoutMs, signal: options.signal, sandbox: options.sandbox })
      return { command: p.command, verdict: verdictOf(p.command, run, p.timeoutMs) }
    }),
  )
  const reasons: string[] = []
  for (const { command, verdict } of verdicts) {
    if (verdict.kind === 'block') reasons.push(verdict.reason)
    else if (verdict.kind === 'failure') result.failures.push({ command, error: verdict.error })
    else if (verdict.output) result.outputs.push(verdict.output)
  }
  if (reasons.length > 0) {
    result.blocked = true
    result.reason = reasons.join('\n')
  }
  return result
}
