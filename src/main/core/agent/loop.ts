import { ErrorNames, HotaruError, toErrorData, type ErrorData } from '@shared/errors'
import { log } from '../util/log'
import type { Effort } from '@shared/schema/effort'
import type { CheckpointAction } from '@shared/schema/checkpoint'
import type { Message, Part, PartOf, SessionStatus, Usage } from '@shared/schema/session'
import type { FinishReason, ProviderRegistry, ProviderSettings, StreamEvent } from '../provider'
import { computeCost, defaultMaxTokens } from '../provider'
import type { SessionStore } from '../session/store'
import { SessionErrorNames } from '../session/errors'
import { ContextManager } from '../context/manager'
import type { AgentInfo } from './agents'
import { cutByWindowMessage, cutCallMessage, freshRecovery, judgeStep, type StepVerdict, type TurnRecovery } from './stop-reasons'
import type { ToolCallContext, ToolCallRequest, ToolHost, ToolOutcome } from './tool-host'
import type { BoundTurnHooks } from './turn-hooks'
import type { ContextSection } from '../context/turn-context'
import { nextTask } from '../util/next-task'

export const DEFAULT_MAX_TURNS = 50

export interface LoopDeps {
  store: SessionStore
  providers: ProviderRegistry
  tools: ToolHost
  setStatus(status: SessionStatus): void
  /** Keeps requests inside the model's window; one with default settings when absent. */
  context?: ContextManager
  /** The turn's extension points (`turn-hooks.ts`): the features that join the turn hang here. */
  hooks?: BoundTurnHooks
}

/** What a step's tool calls changed on disk, as far as they said. */
export interface StepChanges {
  /** Paths the calls listed as written. */
  paths: string[]
  /** A call that may change files ran without listing what it wrote (shell, MCP, custom tools, failures). */
  unlisted: boolean
  /** The calls that may have changed files, as they ended: what the step's checkpoint says it did. */
  calls: CheckpointAction[]
}

/** A call's command (bash) or file as the model gave it, for the checkpoint's label. */
function callSubject(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined
  const fields = input as Record<string, unknown>
  const subject = fields.command ?? fields.filePath
  return typeof subject === 'string' ? subject.slice(0, 500) : undefined
}

export interface TurnInput {
  sessionId: string
  projectRoot: string
  agent: AgentInfo
  model: string
  /** The turn's reasoning effort (see `resolveEffort`); undefined: the model's default. */
  effort?: Effort
  system: string[]
  signal: AbortSignal
  maxTurns?: number
  /** The project's provider settings, sent with each request of the turn. */
  providerSettings?: ProviderSettings
  /**
   * Facts of the turn's start that were not ready for its first request (a slow `git status`): asked after
   * each step the turn goes on from, and told with the next request once they are.
   */
  lateContext?: () => ContextSection[]
}

export interface TurnResult {
  /**
   * `refused`: the model declined (`refusal`) or the provider's filter withheld the answer
   * (`content_filter`); `truncated`: the final answer was cut off at the output limit, even
   * after one continuation.
   */
  status: 'completed' | 'aborted' | 'error' | 'max-turns' | 'rejected' | 'refused' | 'truncated'
  error?: ErrorData
  steps: number
  lastMessage?: Message
  /** How the last step ended (`stop`, `length`, `refusal`, `content_filter`, …). */
  finish?: string
  /** The provider's explanation of that stop (a refusal's), when it gave one. */
  detail?: string
}

const ZERO_USAGE: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }

function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof HotaruError && error.name === SessionErrorNames.Aborted)
}

/**
 * One user turn: stream a step, run each tool call as soon as the model has
 * finished writing it, and continue while the model calls tools, up to
 * `maxTurns` steps. Whatever happens (stop, crash of a provider, malformed tool
 * arguments) the transcript stays valid: partial text is kept and every tool
 * call ends with a result.
 */
export async function runTurn(deps: LoopDeps, input: TurnInput): Promise<TurnResult> {
  const { store } = deps
  const maxTurns = input.maxTurns ?? input.agent.maxTurns ?? DEFAULT_MAX_TURNS
  let lastMessage: Message | undefined
  const context = deps.context ?? new ContextManager({ store, providers: deps.providers })
  let settles = 0
  const recovery = freshRecovery()
  for (let step = 1; step <= maxTurns; step++) {
    const outcome = await runStep(deps, input, context, recovery)
    lastMessage = outcome.message
    // A completed answer may still be owed facts its edits caused (`settle`): the model hears them and goes on.
    const settle = outcome.status === 'completed' && settles < MAX_SETTLES && !input.signal.aborted
    const another = outcome.status === 'overflow' || (outcome.status === 'continue' && !input.signal.aborted)
    const next = settle ? 'settle' : another && step < maxTurns ? 'step' : 'end'
    if (settle) settles++
    const owed = (await deps.hooks?.stepDidEnd({ message: outcome.message, changes: outcome.changes, status: outcome.status, next })) ?? []
    // Late facts never make a turn go on; they ride with a request that goes out anyway.
    const goesOn = outcome.status === 'overflow' || (settle ? owed.length > 0 && !input.signal.aborted : next === 'step')
    addContext(store, outcome.message, goesOn ? [...owed, ...(input.lateContext?.() ?? [])] : owed)
    // An overflow is retried once per step: the next request is compacted first (see `lastStepOverflowed`).
    if (outcome.status === 'overflow') continue
    recovery.overflowRetried = false
    if (settle && owed.length > 0 && !input.signal.aborted) continue
    if (outcome.status !== 'continue') {
      const { finish, detail } = outcome
      return { status: outcome.status, error: outcome.error, steps: step, lastMessage, finish, ...(detail ? { detail } : {}) }
    }
    if (input.signal.aborted) return { status: 'aborted', error: abortedData(), steps: step, lastMessage }
  }
  const note = store.addMessage({
    sessionId: input.sessionId,
    role: 'assistant',
    agent: input.agent.name,
    model: input.model,
    completedAt: Date.now(),
    finish: 'max-turns',
  })
  store.addPart<PartOf<'text'>>({
    sessionId: input.sessionId,
    messageId: note.id,
    type: 'text',
    text: `Stopped after ${maxTurns} steps (the agent's step limit). Send a message to continue.`,
    synthetic: true,
  })
  return { status: 'max-turns', steps: maxTurns, lastMessage: note }
}

/**
 * How long a request goes unanswered before the tools' lazy parts load (the shell checker's grammar): a hosted
 * model takes longer than this to its first token, so they load while the event loop would only wait; a step
 * answered sooner is not held up by them (a line of plain words needs none of it).
 */
const WARM_WHILE_WAITING_MS = 150

/** How many times a turn that would end goes on because its edits caused errors the model had not heard of. */
export const MAX_SETTLES = 2

/** A tool call between the turn's `tool.willRun` and `tool.didRun` hooks. */
function runTool(deps: LoopDeps, call: ToolCallRequest, ctx: ToolCallContext): Promise<ToolOutcome> {
  const execute = (): Promise<ToolOutcome> => deps.tools.execute(call, ctx)
  return deps.hooks ? deps.hooks.runTool(call, ctx, execute) : execute()
}

function addContext(store: SessionStore, message: Message, sections: ContextSection[]): void {
  if (sections.length === 0) return
  store.addPart<PartOf<'context'>>({ sessionId: message.sessionId, messageId: message.id, type: 'context', sections })
}

interface StepOutcome {
  status: 'continue' | 'overflow' | TurnResult['status']
  error?: ErrorData
  message: Message
  changes: StepChanges
  finish: string
  detail?: string
}

async function runStep(deps: LoopDeps, input: TurnInput, context: ContextManager, recovery: TurnRecovery): Promise<StepOutcome> {
  const { store, providers, tools } = deps
  const { sessionId, signal } = input
  // The step's preparation and its request are separate tasks of the event loop (see `nextTask`).
  await nextTask()
  const toolDefinitions = tools.definitions(input.agent, input.model, input.providerSettings)
  // Prunes or summarizes first if the request would not fit; the messages satisfy the transcript invariant (repairs are logged).
  const { messages } = await context.beforeRequest({
    sessionId,
    model: input.model,
    system: input.system,
    tools: toolDefinitions,
    signal,
    providerSettings: input.providerSettings,
  })
  let message = store.addMessage({ sessionId, role: 'assistant', agent: input.agent.name, model: input.model })
  store.addPart<PartOf<'step-start'>>({ sessionId, messageId: message.id, type: 'step-start' })

  let text: PartOf<'text'> | undefined
  let reasoning: PartOf<'reasoning'> | undefined
  let attemptParts: Part[] = []
  const toolParts = new Map<string, PartOf<'tool'>>()
  const running: Promise<ToolOutcome | undefined>[] = []
  const changes: StepChanges = { paths: [], unlisted: false, calls: [] }
  // The calls that may have changed files, in the order the model made them (they finish in any order).
  const actions: Array<CheckpointAction | undefined> = []
  const mayMutate = (name: string): boolean => tools.mutatesFiles?.(name, input.agent) ?? true
  let usage: Usage = ZERO_USAGE
  // Set by `handle` (TypeScript does not see assignments inside closures).
  let finish = 'stop' as FinishReason
  let detail: string | undefined
  let wroteText = false
  let stopTurn = false
  let stopError: ErrorData | undefined
  let startedCalls = 0
  /** Calls whose arguments did not parse: cut off, when the output limit ended the step. */
  const unparsed = new Set<string>()
  const model = providers.model(input.model, input.providerSettings)

  const endText = (): void => {
    if (text) store.endPart(text.id)
    text = undefined
  }
  const endReasoning = (): void => {
    if (reasoning) store.endPart(reasoning.id)
    reasoning = undefined
  }
  const dropAttempt = (): void => {
    endText()
    endReasoning()
    for (const part of attemptParts) store.removePart(part)
    for (const part of attemptParts) {
      if (part.type !== 'tool') continue
      toolParts.delete(part.callId)
      unparsed.delete(part.callId)
    }
    attemptParts = []
    wroteText = false
  }
  const add = <P extends Part>(part: Omit<P, 'id'>): P => {
    const created = store.addPart<P>(part)
    attemptParts.push(created)
    return created
  }

  const startTool = (part: PartOf<'tool'>, toolInput: unknown): void => {
    const slot = startedCalls++
    const started = store.updatePart({ ...part, state: { ...part.state, status: 'running', input: toolInput, startedAt: Date.now() } })
    toolParts.set(part.callId, started)
    const call = { callId: part.callId, name: part.tool, input: toolInput }
    const execution = runTool(deps, call, {
      projectRoot: input.projectRoot,
      sessionId,
      messageId: message.id,
      agent: input.agent,
      model: input.model,
      providerSettings: input.providerSettings,
      signal,
      progress: (update) => {
        const current = toolParts.get(part.callId)
        if (!current || current.state.status !== 'running') return
        const next = {
          ...current,
          state: { ...current.state, title: update.title ?? current.state.title, metadata: { ...current.state.metadata, ...update.metadata } },
        }
        try {
          toolParts.set(part.callId, store.updatePart(next))
        } catch (error) {
          // Live output comes from a tool's timer: a store that cannot write it (a full disk) must not
          // throw there. The tool's result is written next; that write fails the turn with the reason.
          log.warn(`[agent] progress of ${part.callId} not stored: ${(error as Error).message}`)
          toolParts.set(part.callId, next)
        }
      },
    })
      .then(
        (result) => {
          const current = toolParts.get(part.callId) ?? started
          const endedAt = Date.now()
          const state = result.isError
            ? { ...current.state, status: 'error' as const, error: result.output, title: result.title, metadata: result.metadata, endedAt }
            : { ...current.state, status: 'completed' as const, output: result.output, title: result.title, metadata: result.metadata, endedAt }
          toolParts.set(part.callId, store.updatePart({ ...current, state }))
          if (result.stopTurn) stopTurn = true
          stopError ??= result.stopError
          if (result.changedPaths || mayMutate(part.tool)) actions[slot] = { tool: part.tool, subject: callSubject(toolInput) }
          if (result.changedPaths) changes.paths.push(...result.changedPaths)
          // A failed call may have written part of its work before failing.
          else if (mayMutate(part.tool)) changes.unlisted = true
          return result
        },
        (error: unknown) => {
          const current = toolParts.get(part.callId) ?? started
          const aborted = isAbort(error, signal)
          const state = {
            ...current.state,
            status: aborted ? ('interrupted' as const) : ('error' as const),
            error: aborted ? 'interrupted: the turn was stopped' : `tool failed: ${toErrorData(error).data.message}`,
            endedAt: Date.now(),
          }
          toolParts.set(part.callId, store.updatePart({ ...current, state }))
          if (mayMutate(part.tool)) {
            changes.unlisted = true
            actions[slot] = { tool: part.tool, subject: callSubject(toolInput) }
          }
          return undefined
        },
      )
    running.push(execution)
  }

  const handle = (event: StreamEvent): void => {
    switch (event.type) {
      case 'text-delta': {
        endReasoning()
        text ??= add<PartOf<'text'>>({ sessionId, messageId: message.id, type: 'text', text: '' })
        if (event.text) store.appendText(text.id, event.text)
        if (event.text) wroteText = true
        return
      }
      case 'reasoning-delta': {
        endText()
        reasoning ??= add<PartOf<'reasoning'>>({
          sessionId,
          messageId: message.id,
          type: 'reasoning',
          text: '',
          providerId: model.providerId,
        })
        if (event.text) store.appendText(reasoning.id, event.text)
        if (event.signature || event.redactedData || event.encryptedContent) {
          const current = (store.livePart(reasoning.id) as PartOf<'reasoning'> | undefined) ?? reasoning
          store.endPart(reasoning.id)
          store.updatePart({
            ...current,
            signature: event.signature,
            redactedData: event.redactedData,
            ...(event.encryptedContent ? { itemId: event.itemId, encryptedContent: event.encryptedContent, summary: event.summary } : {}),
          })
          reasoning = undefined
        }
        return
      }
      case 'tool-call-start': {
        endText()
        endReasoning()
        const part = add<PartOf<'tool'>>({
          sessionId,
          messageId: message.id,
          type: 'tool',
          callId: event.id,
          tool: event.name,
          state: { status: 'pending', input: {}, raw: '' },
        })
        toolParts.set(event.id, part)
        return
      }
      case 'tool-call-delta': {
        const part = toolParts.get(event.id)
        if (part) toolParts.set(event.id, { ...part, state: { ...part.state, raw: (part.state.raw ?? '') + event.argsDelta } })
        return
      }
      case 'tool-call-end': {
        const started = toolParts.get(event.id)
        if (!started) return
        // A signed call (Gemini) keeps its signature for the requests that send it back.
        const part = event.signature ? { ...started, signature: event.signature, providerId: model.providerId } : started
        if ('inputError' in event) {
          unparsed.add(event.id)
          toolParts.set(
            event.id,
            store.updatePart({
              ...part,
              state: {
                ...part.state,
                status: 'error',
                raw: event.inputError.raw,
                error:
                  `The arguments of this ${event.name} call are not valid JSON (${event.inputError.message}). ` +
                  'Send the call again with a complete JSON object that matches the tool schema.',
                endedAt: Date.now(),
              },
            }),
          )
          return
        }
        startTool(part, event.input)
        return
      }
      case 'usage':
        usage = event.usage
        return
      case 'finish':
        finish = event.reason
        detail = event.detail
        return
      case 'retry':
        deps.setStatus({
          type: 'retry',
          attempt: event.attempt,
          message: event.error.data.message,
          nextAt: Date.now() + event.delayMs,
        })
        return
      case 'attempt-reset':
        // The provider retries from scratch: drop what the failed attempt produced so nothing is duplicated.
        dropAttempt()
        return
      case 'citation':
      case 'provider-block':
        // Server tools (web search) produce these, and a turn enables none (the web search tool runs a request
        // of its own); an unknown block type also arrives as a provider block. No session part holds them, so
        // they are dropped and the text and calls around them are kept.
        return
    }
  }

  let failure: unknown
  /**
   * The output limit a cut answer hit: providers report it as the answer's output tokens
   * (`max_tokens` and thinking included); the usual default when a server reports no usage.
   */
  const limitHit = (): number => (usage.output > 0 ? usage.output : defaultMaxTokens(model))
  /** Cost of attempts this step threw away (a retry with a larger output limit). */
  let spent = 0
  const attempt = async (requestMaxTokens: number | undefined): Promise<void> => {
    try {
      await nextTask()
      const stream = providers.stream({
        model: input.model,
        settings: input.providerSettings,
        system: input.system,
        messages,
        tools: toolDefinitions,
        // One session, one prompt cache: its requests share their prefix.
        cacheKey: sessionId,
        // Every step reasons at the turn's effort; the model's default keeps reasoning on where it can.
        reasoning: { effort: input.effort ?? model.defaultEffort },
        signal,
        ...(requestMaxTokens !== undefined ? { maxTokens: requestMaxTokens } : {}),
      })
      let busy = false
      // What the tools need loads while the model has not begun to answer: time the event loop would only wait.
      const warm = setTimeout(() => deps.tools.warm?.(), WARM_WHILE_WAITING_MS)
      try {
        for await (const event of stream) {
          if (!busy && event.type !== 'retry') {
            clearTimeout(warm)
            deps.setStatus({ type: 'busy' })
            busy = true
          }
          if (event.type === 'retry') busy = false
          handle(event)
        }
      } finally {
        clearTimeout(warm)
      }
    } catch (error) {
      failure = error
    }
  }
  await attempt(undefined)
  // The output limit cut a tool call before any call ran: the same request once more with the
  // model's whole output limit usually fits it, and costs the model no extra turn.
  if (failure === undefined && !signal.aborted && finish === 'length' && unparsed.size > 0 && startedCalls === 0 && model.limit.output > limitHit()) {
    const cut = [...unparsed].map((id) => toolParts.get(id)?.tool ?? 'a tool').join(', ')
    deps.setStatus({
      type: 'retry',
      attempt: 1,
      message: `the output limit of ${limitHit()} tokens cut off the call to ${cut}; asking again with ${model.limit.output}`,
      nextAt: Date.now(),
    })
    spent += computeCost(usage, model.pricing) ?? 0
    dropAttempt()
    toolParts.clear()
    usage = ZERO_USAGE
    finish = 'stop' as FinishReason
    detail = undefined
    await attempt(model.limit.output)
  }
  endText()
  endReasoning()
  await Promise.allSettled(running)

  // Calls that never started (stream cut, abort, bad JSON handled above) still need a result; a
  // call the output limit cut off says so, so the model splits it instead of repeating it.
  const now = Date.now()
  const cutBy = failure !== undefined ? undefined : finish === 'length' ? cutCallMessage : finish === 'context_window' ? cutByWindowMessage : undefined
  for (const current of toolParts.values()) {
    const unfinished = current.state.status === 'pending' || current.state.status === 'running'
    if (cutBy && (unparsed.has(current.callId) || current.state.status === 'pending')) {
      toolParts.set(current.callId, store.updatePart({ ...current, state: { ...current.state, status: 'error', error: cutBy(current.tool, limitHit()), endedAt: now } }))
    } else if (unfinished) {
      store.updatePart({ ...current, state: { ...current.state, status: 'interrupted', error: 'interrupted before it ran', endedAt: now } })
    }
  }

  // Stopped while tools ran counts as stopped even though the stream itself had finished.
  const aborted = signal.aborted || (failure !== undefined && isAbort(failure, signal))
  const verdict: StepVerdict | undefined = aborted
    ? undefined
    : judgeStep(
        {
          finish,
          detail,
          failure,
          toolCalls: toolParts.size,
          startedCalls,
          stopTurn,
          stopError,
          hasText: wroteText,
        },
        recovery,
      )
  // An overflow is answered again after compaction: what this attempt wrote is written again then.
  if (verdict?.status === 'overflow') dropAttempt()
  if (verdict && 'note' in verdict && verdict.note) {
    store.addPart<PartOf<'text'>>({ sessionId, messageId: message.id, type: 'text', text: verdict.note, synthetic: true })
  }
  const stepCost = computeCost(usage, model.pricing)
  const cost = stepCost === undefined && spent === 0 ? undefined : (stepCost ?? 0) + spent
  const storedFinish = aborted ? 'aborted' : (verdict?.finish ?? finish)
  store.addPart<PartOf<'step-finish'>>({ sessionId, messageId: message.id, type: 'step-finish', usage, cost: cost ?? 0, finish: storedFinish })
  const error = aborted ? abortedData() : verdict?.status === 'error' ? verdict.error : undefined
  message = store.updateMessage({
    ...message,
    completedAt: Date.now(),
    finish: storedFinish,
    usage,
    ...(cost !== undefined ? { cost } : {}),
    ...(error ? { error } : {}),
  })
  store.touch(sessionId)
  changes.calls = actions.filter((action) => action !== undefined)
  if (!verdict) return { status: 'aborted', error, message, changes, finish: storedFinish }
  return { status: verdict.status, error, message, changes, finish: storedFinish, ...(detail ? { detail } : {}) }
}

function abortedData(): ErrorData {
  return { name: SessionErrorNames.Aborted, data: { message: 'stopped by the user' } }
}

export { ErrorNames }
