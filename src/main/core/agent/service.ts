import { ErrorNames, HotaruError, toErrorData } from '@shared/errors'
import type { PartOf, Session, SessionStatus } from '@shared/schema/session'
import type { EventBus } from '../bus/bus'
import type { ProviderRegistry, ProviderSettings } from '../provider'
import type { SessionStore } from '../session/store'
import type { AgentInfo } from './agents'
import { runTurn, type TurnResult } from './loop'
import { generateTitle, titleFromMessage } from './title'
import { ContextManager, type CompactionResult, type CompactionSettings } from '../context'
import { log } from '../util/log'
import type { Config } from '../config'
import type { CheckpointService } from '../checkpoint/service'
import { runHooks } from '../extensions'
import type { CommandSandbox } from '../sandbox/sandbox'
import type { TurnContext } from './environment'
import type { SubagentRequest } from '../tools'
import type { ToolHost } from './tool-host'

export interface PromptInput {
  sessionId: string
  text: string
  /** Switch the session to this agent / model from this turn on. */
  agent?: string
  model?: string
}

/** Everything a turn needs that depends on the project (config, tools, prompt). */
export interface TurnEnvironment {
  projectRoot: string
  agents: Map<string, AgentInfo>
  tools: ToolHost
  system(agent: AgentInfo): string[]
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
  done: Promise<TurnResult>
}

/**
 * Runs turns of sessions: one at a time per session (a prompt sent while a turn
 * runs waits its turn), stoppable at any point, with a status per session.
 */
export class AgentService {
  private readonly running = new Map<string, Running>()
  private readonly queues = new Map<string, Promise<unknown>>()
  private readonly statuses = new Map<string, SessionStatus>()
  private readonly titles = new Set<Promise<void>>()
  /** Each project's `compaction` config, as last loaded for a session's turn. */
  private readonly compaction = new Map<string, CompactionSettings | undefined>()
  /** Each session's project provider settings, as last loaded for its turn (manual compaction uses them). */
  private readonly providerSettings = new Map<string, ProviderSettings | undefined>()
  readonly context: ContextManager

  constructor(
    private readonly store: SessionStore,
    private readonly providers: ProviderRegistry,
    private readonly bus: EventBus,
    private readonly environment: (session: Session, turn: TurnContext) => Promise<TurnEnvironment>,
    private readonly onTurnEnd: (sessionId: string, turnId: string) => void = () => undefined,
    private readonly checkpoints?: CheckpointService,
  ) {
    this.context = new ContextManager({
      store,
      providers,
      bus,
      settings: (sessionId) => this.compaction.get(sessionId),
      isBusy: (sessionId) => this.isBusy(sessionId),
    })
  }

  status(sessionId: string): SessionStatus {
    return this.statuses.get(sessionId) ?? { type: 'idle' }
  }

  isBusy(sessionId: string): boolean {
    return this.running.has(sessionId)
  }

  /** Adds the user's message and runs the turn; resolves when the turn ends. */
  prompt(input: PromptInput): Promise<TurnResult> {
    const previous = this.queues.get(input.sessionId) ?? Promise.resolve()
    const next = previous.catch(() => undefined).then(() => this.runPrompt(input))
    this.queues.set(input.sessionId, next)
    // The queue entry is released however the turn ends; the caller gets (and owns) the turn's own outcome.
    next
      .catch(() => undefined)
      .finally(() => {
        if (this.queues.get(input.sessionId) === next) this.queues.delete(input.sessionId)
      })
    return next
  }

  /**
   * Summarizes the session now (`/compact`), or only up to a message ("summarize up
   * to here"). Waits for a running turn to end first, like a queued prompt.
   */
  compact(sessionId: string, options: { upToMessageId?: string } = {}): Promise<CompactionResult> {
    const previous = this.queues.get(sessionId) ?? Promise.resolve()
    const next = previous.catch(() => undefined).then(() => this.context.compact(sessionId, { ...options, providerSettings: this.providerSettings.get(sessionId) }))
    this.queues.set(sessionId, next)
    void next.catch(() => undefined).finally(() => {
      if (this.queues.get(sessionId) === next) this.queues.delete(sessionId)
    })
    return next
  }

  /** Stops the running turn of a session (partial output is kept). */
  abort(sessionId: string): boolean {
    const running = this.running.get(sessionId)
    if (!running) return false
    running.controller.abort()
    return true
  }

  async abortAll(): Promise<void> {
    const all = [...this.running.values()]
    for (const r of all) r.controller.abort()
    await Promise.allSettled(all.map((r) => r.done))
    this.context.dispose()
  }

  private async runPrompt(input: PromptInput): Promise<TurnResult> {
    const session = this.store.get(input.sessionId)
    let result: TurnResult
    try {
      result = await this.runTurnOf(session, input)
    } catch (error) {
      // Turns that cannot start (invalid config, unknown agent) end as errors the UI can show.
      result = { status: 'error', error: toErrorData(error), steps: 0 }
    }
    this.bus.publish(
      'agent:turnEnded',
      { sessionId: session.id, status: result.status, ...(result.error ? { error: result.error } : {}) },
      session.projectId,
    )
    return result
  }

  private async runTurnOf(initial: Session, input: PromptInput): Promise<TurnResult> {
    let session = initial
    const turn: { id?: string } = {}
    const env = await this.environment(session, {
      turnId: () => turn.id,
      hooks: {
        runSubagent: (parentId, request, signal) => this.runSubagent(parentId, request, signal),
        switchAgent: (sessionId, agent) => {
          this.store.update(sessionId, { agent })
        },
      },
    })
    const agentName = input.agent ?? session.agent
    const agent = env.agents.get(agentName)
    if (!agent) {
      throw new HotaruError(ErrorNames.InvalidPayload, {
        message: `unknown agent "${agentName}"; available: ${[...env.agents.keys()].join(', ')}`,
      })
    }
    const model = input.model ?? agent.model ?? session.model
    if (agentName !== session.agent || model !== session.model) {
      session = this.store.update(session.id, { agent: agentName, model })
    }
    // A turn cut short by a crash or kill is closed first, so the transcript is whole.
    this.store.recoverInterrupted(session.id)
    const firstTurn = session.parentId === null && this.store.messages(session.id).length === 0
    const hookPayload = { sessionId: session.id, projectRoot: env.projectRoot }
    const hookOptions = { cwd: env.projectRoot, sandbox: env.sandbox }
    const submitted = await runHooks(env.config?.hooks, 'UserPromptSubmit', { ...hookPayload, prompt: input.text }, hookOptions)
    reportHookFailures(submitted.failures)
    if (submitted.blocked) {
      throw new HotaruError('PromptBlocked', { message: `a UserPromptSubmit hook refused the message: ${submitted.reason ?? ''}`.trim() })
    }
    if (firstTurn) reportHookFailures((await runHooks(env.config?.hooks, 'SessionStart', hookPayload, hookOptions)).failures)
    const user = this.store.addMessage({ sessionId: session.id, role: 'user', agent: agentName, model, completedAt: Date.now() })
    turn.id = user.id
    this.store.addPart<PartOf<'text'>>({ sessionId: session.id, messageId: user.id, type: 'text', text: input.text })

    // The message's checkpoint runs in the snapshot worker while the first request goes out;
    // calls that may change files wait for it (and for every step checkpoint before them).
    const checkpoints = this.checkpoints
    const projectId = session.projectId
    const track = (work: Promise<unknown> | undefined): void => {
      work?.catch((error: unknown) => log.warn(`[checkpoint] ${(error as Error).message}`))
    }
    track(checkpoints?.beforeMessage(session, user.id, env.config))
    const tools: ToolHost = checkpoints ? afterCheckpoints(env.tools, () => checkpoints.idle(projectId)) : env.tools

    // A readable title at once; the model's title replaces it after the turn (requests made
    // during the turn would compete with it).
    if (firstTurn) session = this.store.update(session.id, { title: titleFromMessage(input.text) })

    const controller = new AbortController()
    this.compaction.set(session.id, env.compaction)
    this.providerSettings.set(session.id, env.providerSettings)
    const done = runTurn(
      {
        store: this.store,
        providers: this.providers,
        tools,
        context: this.context,
        setStatus: (s) => this.setStatus(session, s),
        onStepEnd: (message, changes) => {
          track(checkpoints?.afterStep(session, message.id, changes, env.config))
        },
      },
      {
        sessionId: session.id,
        projectRoot: env.projectRoot,
        agent,
        model,
        system: env.system(agent),
        signal: controller.signal,
        maxTurns: env.maxTurns,
        providerSettings: env.providerSettings,
      },
    )
    this.running.set(session.id, { controller, done })
    this.setStatus(session, { type: 'busy' })
    try {
      const result = await done
      const stopped = await runHooks(env.config?.hooks, 'Stop', hookPayload, hookOptions)
      // Reported, not obeyed: continuing a turn because a hook objects could loop forever.
      reportHookFailures(stopped.failures)
      // Model-written titles cost a request, so they are opt-in through `smallModel`.
      if (firstTurn && result.status !== 'aborted' && env.smallModel) this.startTitle(session, input.text, env.smallModel, env.providerSettings)
      return result
    } finally {
      // The turn ends with its checkpoints recorded (a CLI run lists them right after).
      await checkpoints?.idle(projectId)
      this.running.delete(session.id)
      this.store.flush()
      this.onTurnEnd(session.id, user.id)
      this.setStatus(session, { type: 'idle' })
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
  async settleTitles(timeoutMs: number): Promise<void> {
    const pending = Promise.allSettled([...this.titles])
    await Promise.race([pending, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())])
  }

  /** Titles come from a small model in the background; the session is usable meanwhile. */
  private startTitle(session: Session, text: string, smallModel: string, settings?: ProviderSettings): void {
    const task = generateTitle(this.providers, smallModel, text, AbortSignal.timeout(30_000), settings)
      .then((title) => {
        if (title && this.store.find(session.id)) this.store.update(session.id, { title })
      })
      .catch((error: unknown) => {
        // The message-derived title stays; nothing the user must act on.
        log.debug(`[agent] title for ${session.id} failed: ${(error as Error).message}`)
      })
      .finally(() => this.titles.delete(task))
    this.titles.add(task)
  }

  private setStatus(session: Session, status: SessionStatus): void {
    if (status.type === 'idle') this.statuses.delete(session.id)
    else this.statuses.set(session.id, status)
    this.bus.publish('session:status', { sessionId: session.id, status }, session.projectId)
  }
}

/** Tool calls that may change files start only once the checkpoints before them are taken. */
function afterCheckpoints(host: ToolHost, idle: () => Promise<void>): ToolHost {
  return {
    definitions: (agent) => host.definitions(agent),
    mutatesFiles: host.mutatesFiles ? (name, agent) => host.mutatesFiles?.(name, agent) ?? true : undefined,
    execute: async (call, ctx) => {
      if (host.mutatesFiles?.(call.name, ctx.agent) ?? true) await idle()
      return host.execute(call, ctx)
    },
  }
}

function reportHookFailures(failures: { command: string; error: string }[]): void {
  for (const failure of failures) log.warn(`[hooks] ${failure.command}: ${failure.error}`)
}
