import { HotaruError } from '@shared/errors'
import type { HookFailure, Message, Session } from '@shared/schema/session'
import type { ContextSection } from '../context/turn-context'
import { log } from '../util/log'
import { subscription, type Subscription } from '../util/disposable'
import type { AgentInfo } from './agents'
import type { StepChanges, TurnResult } from './loop'
import type { PromptInput, TurnEnvironment } from './service'
import type { ToolCallContext, ToolCallRequest, ToolOutcome } from './tool-host'

/**
 * The turn's extension points. Checkpoints, user hooks, language-server diagnostics, titles and compaction
 * join a turn only through these; the order in which they run at each point is in `turn-features.ts`.
 */
export type TurnHookPoint = keyof TurnHookHandlers

/** One turn as its hooks see it. */
export interface TurnInfo {
  session: Session
  env: TurnEnvironment
  agent: AgentInfo
  model: string
  prompt: PromptInput
  /** The session's first message (a subagent's session has a parent and never counts). */
  firstTurn: boolean
  /** The turn's Stop; hooks that wait stop waiting when it fires. */
  signal: AbortSignal
}

/** What a `turn.willStart` hook may say before the user's message is stored. */
export interface TurnStartReply {
  /** Refuses the message: nothing is stored and the turn ends with `PromptBlocked`. */
  refuse?: string
  /** Sections the message carries for the model, before the project's own (date, git status, instructions). */
  context?: ContextSection[]
  /** Work that needs the stored message (its id), run in hook order before the first request. */
  stored?(message: Message): void
}

/** A finished step, and what comes after it. */
export interface StepEnd {
  turn: TurnInfo
  message: Message
  changes: StepChanges
  status: 'continue' | 'overflow' | TurnResult['status']
  /** `step`: another step follows; `settle`: the turn ends unless a hook returns sections; `end`: the turn ends. */
  next: 'step' | 'settle' | 'end'
}

export interface ToolCall {
  turn: TurnInfo
  call: ToolCallRequest
  ctx: ToolCallContext
}

/** What a `tool.willRun` hook may do: refuse the call (its result is `veto`), or add metadata to its result. */
export interface ToolWillRunReply {
  veto?: ToolOutcome
  metadata?: Record<string, unknown>
}

/** What a `tool.didRun` hook adds to the call's result: text the model reads after it, facts for the UI. */
export interface ToolDidRunReply {
  append?: string
  metadata?: Record<string, unknown>
}

export interface TurnEnd {
  turn: TurnInfo
  /** The user's message of the turn. */
  messageId: string
  result: TurnResult
}

type Reply<T> = Promise<T | undefined> | T | undefined

/** Each point's handler: what it is told and what it may answer. */
export interface TurnHookHandlers {
  /** Before the user's message is stored: may refuse it, add context, and act once it is stored. */
  'turn.willStart': (turn: TurnInfo) => Reply<TurnStartReply>
  /** After every step: may return sections the model hears next; at `settle` they make the turn go on. */
  'step.didEnd': (step: StepEnd) => Reply<ContextSection[]>
  /** Before a tool call runs (after the model wrote it): may wait, refuse it or annotate it. */
  'tool.willRun': (call: ToolCall) => Reply<ToolWillRunReply>
  /** After a tool call ran (not after a refused one): may append to its result. */
  'tool.didRun': (call: ToolCall & { outcome: ToolOutcome }) => Reply<ToolDidRunReply>
  /** After the turn's last step, before it is reported ended. */
  'turn.didEnd': (end: TurnEnd) => Reply<void>
}

interface Registered<P extends TurnHookPoint> {
  name: string
  handler: TurnHookHandlers[P]
}

/** A hook call as it happens, for whoever wants to see the order (a test pins it). */
export type TurnHookCall = { point: TurnHookPoint; hook: string }

/** The hooks of the turn's loop, bound to one turn. */
export interface BoundTurnHooks {
  stepDidEnd(step: Omit<StepEnd, 'turn'>): Promise<ContextSection[]>
  /** Runs a tool call between its `tool.willRun` and `tool.didRun` hooks. */
  runTool(call: ToolCallRequest, ctx: ToolCallContext, execute: () => Promise<ToolOutcome>): Promise<ToolOutcome>
}

/**
 * The registered hooks of every point, called in registration order. A hook that throws is reported by
 * name: at `turn.willStart`, `step.didEnd` and `turn.didEnd` the turn ends with `TurnHookFailed` (what it
 * wrote stays), before a tool call the call is refused with the reason, after a call its result is kept
 * and the failure shown on it.
 */
export class TurnHookRegistry {
  private readonly hooks: { [P in TurnHookPoint]: Registered<P>[] } = {
    'turn.willStart': [],
    'step.didEnd': [],
    'tool.willRun': [],
    'tool.didRun': [],
    'turn.didEnd': [],
  }
  private readonly listeners = new Set<(call: TurnHookCall) => void>()

  /** Adds `handler` at the end of `point`'s hooks, under `name` (reports of its failures say it). */
  on<P extends TurnHookPoint>(point: P, name: string, handler: TurnHookHandlers[P]): Subscription {
    const list: Registered<P>[] = this.hooks[point]
    const entry: Registered<P> = { name, handler }
    list.push(entry)
    return subscription(() => {
      list.splice(list.indexOf(entry), 1)
    })
  }

  /** The names of `point`'s hooks, in the order they run. */
  names(point: TurnHookPoint): string[] {
    return this.hooks[point].map((hook) => hook.name)
  }

  /** Tells `listener` of every hook call as it starts. */
  onCall(listener: (call: TurnHookCall) => void): Subscription {
    this.listeners.add(listener)
    return subscription(() => this.listeners.delete(listener))
  }

  /** Runs `turn.willStart`: stops at the first refusal, or at Stop between hooks. */
  async willStart(turn: TurnInfo): Promise<{ refuse?: string; context: ContextSection[]; stored: (message: Message) => void }> {
    const context: ContextSection[] = []
    const stored: ((message: Message) => void)[] = []
    for (const hook of [...this.hooks['turn.willStart']]) {
      turn.signal.throwIfAborted()
      const reply = await this.turnLevel('turn.willStart', hook, turn.signal, () => hook.handler(turn))
      if (reply?.refuse !== undefined) return { refuse: reply.refuse, context, stored: () => undefined }
      context.push(...(reply?.context ?? []))
      if (reply?.stored) stored.push(reply.stored)
    }
    turn.signal.throwIfAborted()
    return {
      context,
      stored: (message) => {
        for (const run of stored) run(message)
      },
    }
  }

  /** Runs `turn.didEnd`: every hook runs; the first failure then ends the turn as failed. */
  async didEnd(end: TurnEnd): Promise<TurnResult> {
    // Every hook runs (the checkpoints are recorded even when a hook before them failed).
    const failures: unknown[] = []
    for (const hook of [...this.hooks['turn.didEnd']]) {
      await this.turnLevel('turn.didEnd', hook, end.turn.signal, () => hook.handler(end)).catch((error: unknown) => failures.push(error))
    }
    const [failure] = failures
    if (failure === undefined) return end.result
    if (!(failure instanceof HotaruError)) throw failure
    return { ...end.result, status: 'error', error: failure.toData() }
  }

  /** The hooks the loop calls, for one turn. */
  bind(turn: TurnInfo): BoundTurnHooks {
    return {
      stepDidEnd: async (step) => {
        const sections: ContextSection[] = []
        for (const hook of [...this.hooks['step.didEnd']]) {
          sections.push(...((await this.turnLevel('step.didEnd', hook, turn.signal, () => hook.handler({ ...step, turn }))) ?? []))
        }
        return sections
      },
      runTool: async (call, ctx, execute) => {
        const metadata: Record<string, unknown> = {}
        const failures: HookFailure[] = []
        for (const hook of [...this.hooks['tool.willRun']]) {
          this.told('tool.willRun', hook.name)
          let reply: ToolWillRunReply | undefined
          try {
            reply = await hook.handler({ turn, call, ctx })
          } catch (error) {
            if (ctx.signal.aborted) throw error
            return refusedBy(hook.name, error, call)
          }
          if (reply?.veto) return reply.veto
          Object.assign(metadata, reply?.metadata)
        }
        const ran = await execute()
        let outcome: ToolOutcome = { ...ran, metadata: { ...ran.metadata, ...metadata } }
        for (const hook of [...this.hooks['tool.didRun']]) {
          this.told('tool.didRun', hook.name)
          try {
            const reply = await hook.handler({ turn, call, ctx, outcome })
            if (reply) outcome = appended(outcome, reply)
          } catch (error) {
            log.warn(`[turn] the ${hook.name} hook failed after ${call.name} (${call.callId}): ${messageOf(error)}`)
            failures.push({ command: hook.name, error: messageOf(error) })
          }
        }
        return failures.length === 0 ? outcome : withFailures(outcome, failures)
      },
    }
  }

  /** One hook of a turn-level point: a failure becomes `TurnHookFailed` naming the hook and the point. */
  private async turnLevel<T>(point: TurnHookPoint, hook: { name: string }, signal: AbortSignal, run: () => Reply<T>): Promise<T | undefined> {
    this.told(point, hook.name)
    try {
      return await run()
    } catch (error) {
      // Stop is not a failure of the hook that was waiting.
      if (signal.aborted) throw error
      log.warn(`[turn] the ${hook.name} hook failed at ${point}:`, error)
      throw new HotaruError('TurnHookFailed', { message: `the ${hook.name} hook failed at ${point}: ${messageOf(error)}`, point, hook: hook.name }, { cause: error })
    }
  }

  private told(point: TurnHookPoint, hook: string): void {
    for (const listener of this.listeners) listener({ point, hook })
  }
}

function appended(outcome: ToolOutcome, reply: ToolDidRunReply): ToolOutcome {
  return {
    ...outcome,
    output: reply.append ? `${outcome.output}\n\n${reply.append}` : outcome.output,
    metadata: { ...outcome.metadata, ...reply.metadata },
  }
}

/** A failed hook is listed with the call's hook failures, which the chat and the CLI show. */
function withFailures(outcome: ToolOutcome, failures: HookFailure[]): ToolOutcome {
  const earlier = Array.isArray(outcome.metadata?.hookFailures) ? (outcome.metadata.hookFailures as unknown[]) : []
  return { ...outcome, metadata: { ...outcome.metadata, hookFailures: [...earlier, ...failures.map((f) => ({ ...f, event: 'tool.didRun' }))] } }
}

/** A hook that fails before a call refuses it: the model hears why, and nothing ran unguarded. */
function refusedBy(hook: string, error: unknown, call: ToolCallRequest): ToolOutcome {
  log.warn(`[turn] the ${hook} hook failed before ${call.name} (${call.callId}): ${messageOf(error)}`)
  return {
    output: `The call did not run: the ${hook} hook failed before it (${messageOf(error)}).`,
    title: call.name,
    metadata: { hookFailures: [{ command: hook, error: messageOf(error), event: 'tool.willRun' }] },
    isError: true,
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
