import { ErrorNames, HotaruError, toErrorData } from '@shared/errors'
import type { MessageWithParts, PartOf, Usage } from '@shared/schema/session'
import { toModelMessages, type TranscriptRepair } from '../agent/transcript'
import { computeCost, type ModelMessage, ProviderErrorNames, type ProviderSettings, type ToolDefinition } from '../provider'
import type { EventBus } from '../bus/bus'
import type { SessionStore } from '../session/store'
import { log } from '../util/log'
import { COMPACTION_AGENT, summarize, type SummaryProvider } from './compaction'
import { ContextErrorNames } from './errors'
import { describeRepair, repairCount } from './invariant'
import { lastStepOverflowed, measureView } from './measure'
import { type ContextBudget, contextBudget, isOverflow } from './overflow'
import { type PruneOptions, type PruneSelection, selectPrune } from './prune'
import type { DegradeLevel } from './summary-input'
import { coveredCount } from './tail'
import { TranscriptCache } from './transcript-cache'
import { overheadChars, usageTotal } from './tokens'
import { type ContextView, contextView, viewMessages } from './window'

/** `config.compaction`: both default to on. */
export interface CompactionSettings {
  auto?: boolean
  prune?: boolean
}

export interface ContextManagerOptions {
  store: SessionStore
  providers: SummaryProvider
  /** Read on every check (per session: each project has its config), so a config reload applies at once. */
  settings?: (sessionId: string) => CompactionSettings | undefined
  log?: (message: string) => void
  /** Whether a turn of the session is running (`AgentService.isBusy`): a manual compaction then waits for none. */
  isBusy?: (sessionId: string) => boolean
  /** Prune thresholds; the defaults are the product's (tests use small ones). */
  prune?: PruneOptions
  /**
   * The bus the store publishes on: with it, transcripts are kept in memory between
   * requests instead of re-read from SQLite at each step (see transcript-cache.ts).
   */
  bus?: EventBus
}

/** What a check did: nothing, pruned old tool output, wrote a summary, or tried and failed (logged). */
export type ContextAction = 'ok' | 'pruned' | 'compacted' | 'failed'

export interface RequestInput {
  sessionId: string
  model: string
  /** Counted in the estimate (the request sends them too). */
  system?: readonly string[]
  tools?: readonly ToolDefinition[]
  /** Stops a summary this check starts. */
  signal?: AbortSignal
  /** The project's provider settings, passed on to every model lookup and summary request. */
  providerSettings?: ProviderSettings
}

export interface PreparedRequest {
  /** Satisfies `checkInvariant`: safe to send. */
  messages: ModelMessage[]
  tokens: number
  source: 'usage' | 'estimate'
  budget: ContextBudget
  action: ContextAction
  repair: TranscriptRepair
}

export interface StepInput {
  sessionId: string
  model: string
  /** The step's usage as the provider reported it; no usage, no check. */
  usage?: Usage
  signal?: AbortSignal
  /** The project's provider settings, passed on to every model lookup and summary request. */
  providerSettings?: ProviderSettings
}

export interface CompactOptions {
  /** Summarize up to and including this message; later ones stay verbatim. Default: everything. */
  upToMessageId?: string
  /** Summarizing model; default the session's. */
  model?: string
  signal?: AbortSignal
  /** Recorded on the marker; manual compactions are not automatic. */
  auto?: boolean
  /** The project's provider settings, passed on to every model lookup and summary request. */
  providerSettings?: ProviderSettings
}

export interface CompactionResult {
  messageId: string
  part: PartOf<'compaction'>
  /** Messages the summary replaced (not counting an earlier summary it folded in). */
  covered: number
  level: DegradeLevel
  omittedMessages: number
}

export interface ContextStatus {
  tokens: number
  source: 'usage' | 'estimate'
  budget: ContextBudget
  /** The next check acts once the request passes this many tokens. */
  compactAt: number
}

interface ReliefInput {
  sessionId: string
  model: string
  tokens: number
  budget: ContextBudget
  /** The provider said the last request did not fit: act even if the count says it does. */
  force: boolean
  signal?: AbortSignal
  /** The project's provider settings, passed on to every model lookup and summary request. */
  providerSettings?: ProviderSettings
}

function isAbortError(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof HotaruError && error.name === ProviderErrorNames.Aborted)
}

/**
 * Keeps a session's requests inside its model's window. The agent loop calls
 * `beforeRequest` for every provider call (it measures, prunes or summarizes when
 * needed, and returns messages that satisfy the transcript invariant) and
 * `afterStep` with each step's real usage. Everything it decides is read from the
 * session store, so it carries no state across restarts.
 */
export class ContextManager {
  private readonly store: SessionStore
  private readonly providers: SummaryProvider
  private readonly settings: (sessionId: string) => CompactionSettings | undefined
  private readonly log: (message: string) => void
  private readonly isBusy: (sessionId: string) => boolean
  private readonly pruneOptions: PruneOptions
  private readonly cache: TranscriptCache | undefined
  /** Compactions of one session run one after another. */
  private readonly queues = new Map<string, Promise<unknown>>()

  constructor(options: ContextManagerOptions) {
    this.store = options.store
    this.providers = options.providers
    this.settings = options.settings ?? (() => undefined)
    this.log = options.log ?? ((message) => log.warn(message))
    this.isBusy = options.isBusy ?? (() => false)
    this.pruneOptions = options.prune ?? {}
    this.cache = options.bus ? new TranscriptCache(options.bus, (id) => this.store.messages(id)) : undefined
  }

  /** Stops following the bus. */
  dispose(): void {
    this.cache?.dispose()
  }

  budget(model: string, providerSettings?: ProviderSettings): ContextBudget {
    return contextBudget(this.providers.model(model, providerSettings).limit)
  }

  /** The size of the next request, for the context meter. */
  status(input: Omit<RequestInput, 'signal'>): ContextStatus {
    const budget = this.budget(input.model, input.providerSettings)
    const view = contextView(this.history(input.sessionId))
    const measured = measureView(view, input.model, overheadChars(input.system, input.tools))
    return { ...measured, budget, compactAt: budget.usable }
  }

  /** The messages for the next provider call, after pruning or summarizing if they would not fit. */
  async beforeRequest(input: RequestInput): Promise<PreparedRequest> {
    const budget = this.budget(input.model, input.providerSettings)
    const overhead = overheadChars(input.system, input.tools)
    let view = contextView(this.history(input.sessionId))
    let measured = measureView(view, input.model, overhead)
    let action: ContextAction = 'ok'
    const force = lastStepOverflowed(view)
    if (force || isOverflow(measured.tokens, budget)) {
      action = await this.relieve({
        sessionId: input.sessionId,
        model: input.model,
        tokens: measured.tokens,
        budget,
        force,
        signal: input.signal,
        providerSettings: input.providerSettings,
      })
      if (action !== 'ok') {
        view = contextView(this.history(input.sessionId))
        measured = measureView(view, input.model, overhead)
      }
      if (isOverflow(measured.tokens, budget)) {
        // Sent anyway: the provider's answer is the final word, and a refusal forces a summary next time.
        this.log(`[context] ${input.sessionId}: the request still takes ~${measured.tokens} of ${budget.usable} usable tokens`)
      }
    }
    const { messages, repair } = toModelMessages(viewMessages(view), (id) => this.store.image(id))
    if (repair.interrupted.length > 0 || repairCount(repair.invariant) > 0) {
      const notes = [
        repair.interrupted.length > 0 ? `answered ${repair.interrupted.length} unfinished tool call(s) as interrupted` : '',
        describeRepair(repair.invariant),
      ].filter(Boolean)
      this.log(`[context] ${input.sessionId}: repaired the transcript: ${notes.join('; ')}`)
    }
    return { messages, ...measured, budget, action, repair }
  }

  /** Checks a finished step's real usage; prunes or summarizes when the context overflowed. */
  async afterStep(input: StepInput): Promise<ContextAction> {
    if (!input.usage) return 'ok'
    const budget = this.budget(input.model, input.providerSettings)
    const tokens = usageTotal(input.usage)
    if (!isOverflow(tokens, budget)) return 'ok'
    return this.relieve({
      sessionId: input.sessionId,
      model: input.model,
      tokens,
      budget,
      force: false,
      signal: input.signal,
      providerSettings: input.providerSettings,
    })
  }

  /** Prunes old tool output now if that frees enough (`force`: whatever it frees). */
  prune(sessionId: string, options: { force?: boolean } = {}): PruneSelection {
    const selection = selectPrune(contextView(this.history(sessionId)).tail, this.pruneOptions)
    if (selection.worthIt || (options.force && selection.parts.length > 0)) this.applyPrune(selection)
    return selection
  }

  /**
   * Manual compaction (`/compact`), or "summarize up to here" with `upToMessageId`.
   * Refused while a turn runs: the turn's newest output would be summarized half done.
   */
  compact(sessionId: string, options: CompactOptions = {}): Promise<CompactionResult> {
    return this.serialized(sessionId, () => {
      const session = this.store.get(sessionId)
      if (this.isBusy(sessionId)) {
        throw new HotaruError(ContextErrorNames.CompactionBusy, { message: `session ${sessionId} is running a turn; compact it when the turn ends` })
      }
      const history = this.history(sessionId)
      const view = contextView(history)
      let count = view.tail.length
      if (options.upToMessageId !== undefined) {
        const id = options.upToMessageId
        const index = view.tail.findIndex((m) => m.info.id === id)
        if (index < 0) {
          if (history.some((m) => m.info.id === id)) {
            throw new HotaruError(ContextErrorNames.NothingToCompact, { message: `message ${id} is already summarized`, messageId: id })
          }
          throw new HotaruError(ErrorNames.NotFound, { message: `message ${id} is not in session ${sessionId}`, messageId: id })
        }
        count = index + 1
      }
      return this.summarizeView(sessionId, view, count, options.model ?? session.model, options.auto ?? false, options.signal, options.providerSettings)
    })
  }

  private async relieve(input: ReliefInput): Promise<ContextAction> {
    const { sessionId, budget } = input
    const settings = this.settings(sessionId) ?? {}
    let action: ContextAction = 'ok'
    let remaining = input.tokens
    if (settings.prune !== false) {
      const selection = this.prune(sessionId)
      if (selection.worthIt) {
        action = 'pruned'
        remaining -= selection.freedTokens
        this.log(`[context] ${sessionId}: pruned ${selection.parts.length} old tool output(s), ~${selection.freedTokens} tokens`)
      }
    }
    if (!input.force && !isOverflow(remaining, budget)) return action
    if (settings.auto === false) {
      this.log(`[context] ${sessionId}: ~${remaining} tokens exceed the usable ${budget.usable} and automatic compaction is off`)
      return action
    }
    try {
      await this.serialized(sessionId, () => {
        const view = contextView(this.history(sessionId))
        return this.summarizeView(sessionId, view, coveredCount(view.tail, budget.usable), input.model, true, input.signal, input.providerSettings)
      })
      return 'compacted'
    } catch (error) {
      // The turn goes on without a summary: the next check tries again, and a request the
      // provider refuses as too long forces one. The step itself is already stored.
      const data = toErrorData(error)
      const reason = isAbortError(error, input.signal) ? 'stopped' : `${data.name}: ${data.data.message}`
      this.log(`[context] ${sessionId}: automatic compaction failed: ${reason}`)
      return 'failed'
    }
  }

  private async summarizeView(
    sessionId: string,
    view: ContextView,
    count: number,
    model: string,
    auto: boolean,
    signal: AbortSignal | undefined,
    providerSettings?: ProviderSettings,
  ): Promise<CompactionResult> {
    const covered = view.tail.slice(0, count)
    const last = covered.at(-1)
    // Open messages in range are leftovers of a crash (a running turn is excluded by the
    // callers): summarized like the rest, their unfinished calls shown as such.
    if (!last) throw new HotaruError(ContextErrorNames.NothingToCompact, { message: `session ${sessionId} has nothing new to summarize` })
    const outcome = await summarize(this.providers, { model, previousSummary: view.compaction?.part.summary, covered, signal, providerSettings })
    const cost = computeCost(outcome.usage, this.providers.model(model, providerSettings).pricing)
    const message = this.store.addMessage({
      sessionId,
      role: 'assistant',
      agent: COMPACTION_AGENT.name,
      model,
      completedAt: Date.now(),
      finish: 'stop',
      usage: outcome.usage,
      ...(cost !== undefined ? { cost } : {}),
    })
    const part = this.store.addPart<PartOf<'compaction'>>({
      sessionId,
      messageId: message.id,
      type: 'compaction',
      summary: outcome.summary,
      auto,
      upTo: last.info.id,
    })
    const degraded = outcome.level === 'full' ? '' : ` (input degraded: ${outcome.level})`
    this.log(`[context] ${sessionId}: summarized ${covered.length} message(s)${degraded}`)
    return { messageId: message.id, part, covered: covered.length, level: outcome.level, omittedMessages: outcome.omittedMessages }
  }

  private history(sessionId: string): MessageWithParts[] {
    return this.cache ? this.cache.messages(sessionId) : this.store.messages(sessionId)
  }

  private applyPrune(selection: PruneSelection): void {
    const now = Date.now()
    for (const part of selection.parts) this.store.updatePart({ ...part, state: { ...part.state, compactedAt: now } })
  }

  private serialized<T>(sessionId: string, task: () => T | Promise<T>): Promise<T> {
    const previous = this.queues.get(sessionId) ?? Promise.resolve()
    const next = previous.then(
      () => task(),
      () => task(),
    )
    this.queues.set(sessionId, next)
    void next.then(
      () => this.settle(sessionId, next),
      () => this.settle(sessionId, next),
    )
    return next
  }

  private settle(sessionId: string, done: Promise<unknown>): void {
    if (this.queues.get(sessionId) === done) this.queues.delete(sessionId)
  }
}
