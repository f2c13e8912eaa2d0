import { ErrorNames, HotaruError, toErrorData, type ErrorData } from '@shared/errors'
import type { Effort } from '@shared/schema/effort'
import type { PartOf, Session, SessionStatus } from '@shared/schema/session'
import type { EventBus } from '../bus/bus'
import type { ProviderRegistry, ProviderSettings } from '../provider'
import type { SessionStore } from '../session/store'
import type { AgentInfo } from './agents'
import { runTurn, type TurnResult } from './loop'
import { checkPromptImages, storePromptImages, type PromptImage } from './prompt-images'
import { ContextManager, type CompactionResult, type CompactionSettings } from '../context'
import { log } from '../util/log'
import type { Config } from '../config'
import type { TurnContext } from './environment'
import type { SubagentRequest } from '../tools'
import type { ToolHost } from './tool-host'
import { TurnHookRegistry, type TurnInfo } from './turn-hooks'
import { registerTurnFeatures, type TurnFeature } from './turn-features'
import { Titles } from './features/titles'
import { userHooksFeature } from './features/user-hooks'
import { compactionFeature } from './features/compaction'
import { changedSections, sentSections, type ContextSection } from '../context/turn-context'
import type { ProjectInstance } from '../project/instance'
import type { CommandSandbox } from '../sandbox/sandbox'
import type { HeldLock, SessionLocks } from '../session/locks'

export interface PromptInput {
  sessionId: string
  text: string
  /** Switch the session to this agent / model from this turn on. */
  agent?: string
  model?: string
  /** Switch the session to this reasoning effort from this turn on (remembered with the session). */
  effort?: Effort
  /** Images attached to the message (checked against the model before the turn starts). */
  images?: PromptImage[]
}

/** Everything a turn needs that depends on the project (config, tools, prompt). */
export interface TurnEnvironment {
  projectRoot: string
  /** The open project the turn runs in (its language servers, say). */
  project?: ProjectInstance
  /** Variables the project's commands and hooks get on top of the environment (a worktree's ports). */
  commandEnv?: Readonly<Record<string, string>>
  agents: Map<string, AgentInfo>
  tools: ToolHost
  /** The system prompt: the same on every turn of a session while the config does not change. */
  system(agent: AgentInfo): string[]
  /** This turn's date, git status, instruction files and memory; the turn's message carries those the model has not seen. */
  turnSections?(): ContextSection[]
  /** Facts of the turn's start that were not ready for its first request (`TurnInput.lateContext`). */
  lateContext?(): ContextSection[]
  maxTurns?: number
  /** Model for titles and other small background work. */
  smallModel?: string
  compaction?: CompactionSettings
  config?: Config
  /** The OS sandbox commands and hooks run in (`sandbox.enabled`). */
  sandbox?: CommandSandbox
  /** The project's provider settings, sent with each of the turn's requests. */
  providerSettings?: ProviderSettings
}

interface Running {
  controller: AbortController
}

/** A prompt handed to the agent: its user message id once written, and the turn's outcome. */
export interface SubmittedPrompt {
  /** Another turn of the session ran (or waited) when it was sent: it waits its turn. */
  queued: boolean
  /**
   * The id of the user message, once the turn has written it. Rejects when the turn ends before that (a hook
   * refused the message, the agent is unknown, the config is invalid, the session was deleted, Stop).
   */
  messageId: Promise<string>
  /** Settles when the turn ends; never rejects (a failure is a result with status `error`). */
  done: Promise<TurnResult>
}

/** Why a turn stopped when the user did not press Stop (recorded on `agent:turnEnded`). */
export class TurnCancelled extends HotaruError {
  constructor(reason: string) {
    super('TurnCancelled', { message: reason })
  }
}

/**
 * Runs turns of sessions: one at a time per session (a prompt sent while a turn
 * runs waits its turn), stoppable at any point, with a status per session.
 */
export class AgentService {
  private readonly running = new Map<string, Running>()
  /** Prompts waiting behind a running turn, per session: stopped with it when the session goes. */
  private readonly waiting = new Map<string, Set<AbortController>>()
  private readonly queues = new Map<string, Promise<unknown>>()
  private readonly statuses = new Map<string, SessionStatus>()
  private readonly titles: Titles
  /** Each project's `compaction` config, as last loaded for a session's turn. */
  private readonly compaction = new Map<string, CompactionSettings | undefined>()
  /** Each session's project provider settings, as last loaded for its turn (manual compaction uses them). */
  private readonly providerSettings = new Map<string, ProviderSettings | undefined>()
  readonly context: ContextManager
  /** The turn's extension points; the features join a turn through them (see `turn-features.ts`). */
  readonly hooks = new TurnHookRegistry()

  constructor(
    private readonly store: SessionStore,
    private readonly providers: ProviderRegistry,
    private readonly bus: EventBus,
    private readonly environment: (session: Session, turn: TurnContext) => Promise<TurnEnvironment>,
    private readonly onTurnEnd: (sessionId: string, turnId: string) => void = () => undefined,
    /** Features of the project's other services that join each turn (checkpoints, language servers). */
    features: { checkpoints?: TurnFeature; lsp?: TurnFeature } = {},
    /** The open project a turn belongs to: it owns the turn, and closing it cancels the turn. */
    private readonly owner: (projectId: string) => ProjectInstance | undefined = () => undefined,
    /** One writer per session across processes: a turn holds its session for its whole run. */
    private readonly locks?: SessionLocks,
    /** A failure as the user needs it: the database's own errors name the data folder and the way out. */
    private readonly explain: (error: unknown) => unknown = (error) => error,
  ) {
    this.context = new ContextManager({
      store,
      providers,
      bus,
      settings: (sessionId) => this.compaction.get(sessionId),
      isBusy: (sessionId) => this.running.has(sessionId),
    })
    this.titles = new Titles(store, providers)
    registerTurnFeatures(this.hooks, {
      ...features,
      'user-hooks': userHooksFeature(store),
      titles: this.titles.feature(),
      compaction: compactionFeature(this.context),
    })
  }

  status(sessionId: string): SessionStatus {
    return this.statuses.get(sessionId) ?? { type: 'idle' }
  }

  /** Sessions whose status is not idle, for those `include` accepts. */
  statusesOf(include: (sessionId: string) => boolean): [string, SessionStatus][] {
    return [...this.statuses].filter(([sessionId]) => include(sessionId))
  }

  isBusy(sessionId: string): boolean {
    return this.running.has(sessionId) || this.queues.has(sessionId)
  }

  /** Adds the user's message and runs the turn; resolves when the turn ends. */
  prompt(input: PromptInput): Promise<TurnResult> {
    return this.submit(input).done
  }

  /**
   * Queues a prompt behind the session's running turn (or starts it). Its abort controller exists from this
   * moment, so Stop and session deletion reach it while it waits, loads config, starts MCP or runs hooks.
   */
  submit(input: PromptInput): SubmittedPrompt {
    const sessionId = input.sessionId
    const session = this.store.find(sessionId)
    const projectId = session?.projectId
    const queued = this.queues.has(sessionId) || this.running.has(sessionId)
    // Busy from the moment it is sent, not from the turn's first model request.
    if (session && !queued) this.setStatus(session, { type: 'busy' })
    const controller = new AbortController()
    const waiting = this.waiting.get(sessionId) ?? new Set<AbortController>()
    waiting.add(controller)
    this.waiting.set(sessionId, waiting)
    let written: { resolve: (id: string) => void; reject: (error: unknown) => void } | undefined
    const messageId = new Promise<string>((resolve, reject) => {
      written = { resolve, reject }
    })
    // Callers that only want the outcome (the CLI, subagents) never look at the id: its rejection is expected.
    messageId.catch(() => undefined)
    const ids = written as NonNullable<typeof written>
    const previous = this.queues.get(sessionId) ?? Promise.resolve()
    const next = previous.catch(() => undefined).then(() => {
      waiting.delete(controller)
      if (waiting.size === 0 && this.waiting.get(sessionId) === waiting) this.waiting.delete(sessionId)
      return this.runPrompt(input, projectId, controller, ids)
    })
    this.queues.set(sessionId, next)
    // The project owns the turn from now on: closing it cancels the turn (queued or running) and waits for its end.
    const project = projectId === undefined ? undefined : this.owner(projectId)
    const untrack = project?.isOpen
      ? project.track({
          cancel: async (reason) => {
            controller.abort(new TurnCancelled(reason))
            await next.then(
              () => undefined,
              () => undefined,
            )
          },
        })
      : undefined
    // The queue entry is released however the turn ends; `runPrompt` never rejects.
    next
      .catch((error: unknown) => log.error(`[agent] turn of ${sessionId} failed outside its guard:`, error))
      .finally(() => {
        untrack?.()
        if (this.queues.get(sessionId) === next) this.queues.delete(sessionId)
      })
    return { queued, messageId, done: next }
  }

  /**
   * Summarizes the session now (`/compact`), or only up to a message ("summarize up
   * to here"). Waits for a running turn to end first, like a queued prompt.
   */
  compact(sessionId: string, options: { upToMessageId?: string } = {}): Promise<CompactionResult> {
    const previous = this.queues.get(sessionId) ?? Promise.resolve()
    const next = previous.catch(() => undefined).then(() => this.context.compact(sessionId, { ...options, providerSettings: this.providerSettings.get(sessionId) }))
    this.queues.set(sessionId, next)
    next
      .catch(() => undefined)
      .finally(() => {
        if (this.queues.get(sessionId) === next) this.queues.delete(sessionId)
      })
    return next
  }

  /** Stops the running turn of a session (partial output is kept); prompts queued behind it still run. */
  abort(sessionId: string): boolean {
    // A prompt sent a moment ago whose turn has not been picked up yet is the turn in progress too.
    const current = this.running.get(sessionId)?.controller ?? this.waiting.get(sessionId)?.values().next().value
    if (!current || current.signal.aborted) return false
    current.abort()
    return true
  }

  /** Ends the session's running turn and every prompt queued behind it, with the reason on `turnEnded`. */
  cancelSession(sessionId: string, reason: string): Promise<void> {
    const cancelled = new TurnCancelled(reason)
    for (const controller of this.waiting.get(sessionId) ?? []) controller.abort(cancelled)
    this.running.get(sessionId)?.controller.abort(cancelled)
    return this.settled(sessionId)
  }

  /** Resolves when the session has no running or queued turn left. */
  async settled(sessionId: string): Promise<void> {
    for (let queue = this.queues.get(sessionId); queue; queue = this.queues.get(sessionId)) {
      await queue.then(
        () => undefined,
        () => undefined,
      )
      if (this.queues.get(sessionId) === queue) return
    }
  }

  async abortAll(): Promise<void> {
    const sessions = [...new Set([...this.running.keys(), ...this.waiting.keys(), ...this.queues.keys()])]
    await Promise.all(sessions.map((id) => this.cancelSession(id, 'the app is shutting down')))
    this.context.dispose()
  }

  /** Runs one turn to its end; every failure becomes a result, and `agent:turnEnded` always fires. */
  private async runPrompt(
    input: PromptInput,
    projectId: string | undefined,
    controller: AbortController,
    ids: { resolve: (id: string) => void; reject: (error: unknown) => void },
  ): Promise<TurnResult> {
    let result: TurnResult
    const session = this.store.find(input.sessionId)
    if (!session) {
      result = { status: 'error', error: { name: ErrorNames.NotFound, data: { message: `session ${input.sessionId} no longer exists` } }, steps: 0 }
    } else if (controller.signal.aborted) {
      // Stopped before it began (it waited behind another turn, or Stop came at once).
      result = { status: 'aborted', steps: 0, ...abortReason(controller.signal) }
      this.setStatus(session, { type: 'idle' })
    } else {
      // Registered before anything is awaited: Stop works during config load, MCP start, hooks and the first checkpoint.
      this.running.set(session.id, { controller })
      this.setStatus(session, { type: 'busy' })
      let held: HeldLock | undefined
      try {
        // Another process running a turn in this session refuses this one before anything is written.
        held = this.locks?.hold(session.id, session.projectId)
        result = await this.runTurnOf(session, input, controller.signal, ids.resolve)
        if (result.status === 'aborted') result = { ...result, ...abortReason(controller.signal) }
      } catch (error) {
        // Turns that cannot start (invalid config, unknown agent) end as errors the UI can show.
        result = controller.signal.aborted
          ? { status: 'aborted', steps: 0, ...abortReason(controller.signal) }
          : { status: 'error', error: toErrorData(this.explain(error)), steps: 0 }
      } finally {
        releaseLock(held, session.id)
        this.running.delete(session.id)
        this.setStatus(session, { type: 'idle' })
      }
    }
    ids.reject(result.error ? new HotaruError(result.error.name, result.error.data) : new HotaruError('TurnNotStarted', { message: `the turn ended (${result.status}) before the message was added` }))
    this.bus.publish(
      'agent:turnEnded',
      { sessionId: input.sessionId, status: result.status, ...(result.error ? { error: result.error } : {}) },
      session?.projectId ?? projectId,
    )
    return result
  }

  private async runTurnOf(initial: Session, input: PromptInput, signal: AbortSignal, written: (messageId: string) => void): Promise<TurnResult> {
    let session = initial
    const turn: { id?: string } = {}
    // The provider SDK loads while the turn is set up (config, extensions, git status): the first
    // request does not wait for its module graph after all of that.
    this.providers.prepare(input.model ?? session.model)
    const env = await untilAborted(
      this.environment(session, {
        turnId: () => turn.id,
        hooks: {
          runSubagent: (parentId, request, subSignal) => this.runSubagent(parentId, request, subSignal),
          switchAgent: (sessionId, agent) => {
            this.store.update(sessionId, { agent })
          },
        },
      }),
      signal,
    )
    const agentName = input.agent ?? session.agent
    const agent = env.agents.get(agentName)
    if (!agent) {
      throw new HotaruError('AgentNotFound', {
        message: `unknown agent "${agentName}"; available: ${[...env.agents.keys()].join(', ')}`,
        agent: agentName,
      })
    }
    const model = input.model ?? agent.model ?? session.model
    const effortChanged = input.effort !== undefined && input.effort !== session.effort
    if (agentName !== session.agent || model !== session.model || effortChanged) {
      session = this.store.update(session.id, { agent: agentName, model, ...(input.effort ? { effort: input.effort } : {}) })
    }
    // Before anything is stored or sent: a model without vision refuses the message, which the caller keeps.
    const modelInfo = this.providers.model(model, env.providerSettings)
    checkPromptImages(input.images ?? [], modelInfo, this.providers.kind(modelInfo.providerId, env.providerSettings))
    // A turn cut short by a crash or kill is closed first, so the transcript is whole.
    this.store.recoverInterrupted(session.id)
    const history = this.store.messages(session.id)
    const info: TurnInfo = { session, env, agent, model, prompt: input, firstTurn: session.parentId === null && history.length === 0, signal }
    // User hooks may refuse the message; diagnostics that arrived after the last turn ended come first.
    const start = await this.hooks.willStart(info)
    if (start.refuse !== undefined) throw new HotaruError('PromptBlocked', { message: start.refuse })
    const sections = [...start.context, ...(env.turnSections ? changedSections(env.turnSections(), sentSections(history)) : [])]
    const user = this.store.addMessage({ sessionId: session.id, role: 'user', agent: agentName, model, completedAt: Date.now() })
    turn.id = user.id
    if (sections.length > 0) this.store.addPart<PartOf<'context'>>({ sessionId: session.id, messageId: user.id, type: 'context', sections })
    storePromptImages(this.store, session.id, user.id, input.images ?? [])
    if (input.text.length > 0) this.store.addPart<PartOf<'text'>>({ sessionId: session.id, messageId: user.id, type: 'text', text: input.text })
    start.stored(user)
    written(user.id)

    this.compaction.set(session.id, env.compaction)
    this.providerSettings.set(session.id, env.providerSettings)
    const done = runTurn(
      {
        store: this.store,
        providers: this.providers,
        tools: env.tools,
        context: this.context,
        setStatus: (s) => this.setStatus(session, s),
        hooks: this.hooks.bind(info),
      },
      {
        sessionId: session.id,
        projectRoot: env.projectRoot,
        agent,
        model,
        effort: resolveEffort(session, agent, env.config),
        system: env.system(agent),
        signal,
        maxTurns: env.maxTurns,
        providerSettings: env.providerSettings,
        ...(env.lateContext ? { lateContext: env.lateContext } : {}),
      },
    )
    try {
      return await this.hooks.didEnd({ turn: info, messageId: user.id, result: await done })
    } finally {
      this.store.flush()
      this.onTurnEnd(session.id, user.id)
    }
  }

  /** The `task` tool: a child session runs the subagent; its last answer is the tool's result. */
  private async runSubagent(parentId: string, request: SubagentRequest, signal: AbortSignal): Promise<string> {
    const parent = this.store.get(parentId)
    const child = this.store.create({
      projectId: parent.projectId,
      parentId,
      agent: request.agent,
      model: parent.model,
      ...(parent.effort ? { effort: parent.effort } : {}),
      title: request.description,
    })
    const stop = (): void => {
      this.abort(child.id)
    }
    signal.addEventListener('abort', stop, { once: true })
    try {
      const result = await this.prompt({ sessionId: child.id, text: request.prompt, agent: request.agent })
      if (result.status === 'error') {
        throw new HotaruError('SubagentFailed', {
          message: `the ${request.agent} subagent failed: ${result.error?.data.message ?? 'unknown error'}`,
          sessionId: child.id,
        })
      }
      const last = this.store.messages(child.id).filter((m) => m.info.role === 'assistant').at(-1)
      const text = (last?.parts ?? [])
        .filter((p): p is PartOf<'text'> => p.type === 'text')
        .map((p) => p.text)
        .join('\n')
        .trim()
      return result.status === 'completed' ? text : `${text}\n\n(The subagent stopped early: ${result.status}.)`
    } finally {
      signal.removeEventListener('abort', stop)
    }
  }

  /** Waits for background title generation (the CLI does before it exits). */
  settleTitles(timeoutMs: number): Promise<void> {
    return this.titles.settle(timeoutMs)
  }

  private setStatus(session: Session, status: SessionStatus): void {
    if (status.type === 'idle') this.statuses.delete(session.id)
    else this.statuses.set(session.id, status)
    this.bus.publish('session:status', { sessionId: session.id, status }, session.projectId)
  }
}

/** Frees the session for other processes; a failure (a full disk) is logged: the holder's end is what others check. */
function releaseLock(held: HeldLock | undefined, sessionId: string): void {
  try {
    held?.release()
  } catch (error) {
    log.warn(`[session] cannot release the lock of ${sessionId}; other processes see it free once this one exits: ${(error as Error).message}`)
  }
}

/** What `agent:turnEnded` says about a stop the user did not ask for (the project closed, the session went). */
function abortReason(signal: AbortSignal): { error?: ErrorData } {
  return signal.reason instanceof TurnCancelled ? { error: signal.reason.toData() } : {}
}

/** Waits for work that cannot itself be stopped; on Stop the turn moves on and the work's late failure is only logged. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch((error: unknown) => log.debug('[agent] work of a stopped turn failed:', error))
    return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('stopped'))
  }
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('stopped'))
    signal.addEventListener('abort', stop, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', stop)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop)
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
  })
}

/**
 * The effort a turn asks for: the session's own choice, else the agent's, else the
 * config's (a project layer over the user's); undefined leaves each model its default.
 */
export function resolveEffort(session: Session, agent: AgentInfo, config: Config | undefined): Effort | undefined {
  return session.effort ?? agent.effort ?? config?.effort
}
