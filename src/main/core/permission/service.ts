import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { EventPayload } from '@shared/ipc'
import type { ApprovalScope as ApprovalScopeSchema, PendingPermission } from '@shared/ipc/permission'
import type { ApprovalStore } from './approval-store'
import { PermissionDeniedError, PermissionRejectedError } from './errors'
import { findRuleOf, READ_ONLY_PATTERN, wildcardMatch, type PermissionAction, type Rule, type Ruleset } from './rule'
import { Emitter, type Subscription } from '../util/emitter'
import { owned, type AttachContext } from '../attach'
import { DisposableStore, type Disposable } from '../util/disposable'

/** How long an "always" approval lasts. `persisted` goes to the `ApprovalStore` and survives restarts. */
export type ApprovalScope = z.infer<typeof ApprovalScopeSchema>

/** What a tool asks for (through `ToolContext.ask`). */
export interface PermissionAsk {
  /** A tool id, `edit`, `external_directory` or `doom_loop`. */
  permission: string
  /** Concrete values checked against the rules; every one must be allowed. */
  patterns: string[]
  /** Patterns remembered when the user answers "always"; empty means "always" is not offered. */
  always: string[]
  /** One line for the user, e.g. the command or the file. */
  title: string
  /** For the UI: diff, command, file path… */
  metadata?: Record<string, unknown>
  /**
   * What is asked is not known well enough for a rule to allow it (a shell line the
   * analysis cannot see into): deny rules still deny, but no allow rule or
   * remembered approval answers it; the user must.
   */
  forceAsk?: boolean
  /**
   * The patterns that are read-only commands by the table of read-only commands
   * (`bash` asks only): `@read-only` rules match these and nothing else.
   */
  readOnly?: string[]
}

/** An ask as the agent loop hands it to the service. */
export interface PermissionRequest extends PermissionAsk {
  sessionId: string
  projectId: string
  /** The agent's configured rules (`buildRuleset`); remembered approvals are added by the service. */
  ruleset: Ruleset
  /**
   * Rulesets of the user's own and the managed config, each evaluated on its own: when
   * one of them denies a pattern, it is denied whatever later layers or approvals say.
   */
  floors?: readonly Ruleset[]
  /** The user turn; `turn`-scoped approvals last until `endTurn`. */
  turnId?: string
  messageId?: string
  callId?: string
  agent?: string
  /** Aborting drops the pending ask and rejects with the signal's reason. */
  signal?: AbortSignal
}

/** A pending ask as the UI and CLI see it: the wire type of `permission.pending`. */
export type { PendingPermission }

export type PermissionReplyKind = EventPayload<'permission', 'replied'>['reply']

export interface PermissionReply {
  reply: PermissionReplyKind
  /** With `reject`: returned to the model, and the turn goes on. */
  feedback?: string
  /** With `always`; `session` when absent. */
  scope?: ApprovalScope
}

/** What the service tells its listeners (and the bus its clients): the `permission:*` event payloads. */
export type PermissionEvent = EventPayload<'permission', 'asked'> | EventPayload<'permission', 'replied'>

export type PermissionListener = (event: PermissionEvent) => void

interface Pending {
  info: PendingPermission
  ruleset: Ruleset
  floors?: readonly Ruleset[]
  readOnly: ReadonlySet<string>
  resolve: () => void
  reject: (error: unknown) => void
  cleanup: () => void
}

export interface PermissionServiceOptions {
  store?: ApprovalStore
  now?: () => number
  /**
   * The project whose `project` and `persisted` approvals a project shares: a worktree's
   * main project, so one approval covers the repository in all its trees. Itself when absent.
   */
  ownerOf?: (projectId: string) => string
}

/**
 * Decides permission asks and keeps the pending ones until the UI or the CLI answers.
 * A pattern is denied when the agent's rules deny it (remembered approvals never
 * override a deny), allowed when the rules or a remembered approval allow it, and
 * asked otherwise. Events go to listeners; the caller forwards them to the bus.
 */
export class PermissionService {
  private readonly pendingById = new Map<string, Pending>()
  private readonly events = new Emitter<PermissionEvent>('permission')
  private readonly turnRules = new Map<string, Rule[]>()
  private readonly sessionRules = new Map<string, Rule[]>()
  private readonly projectRules = new Map<string, Rule[]>()
  private readonly persisted = new Map<string, Promise<Rule[]>>()
  private readonly now: () => number

  constructor(private readonly options: PermissionServiceOptions = {}) {
    this.now = options.now ?? Date.now
  }

  /** How many listeners follow asks and replies. */
  get listenerCount(): number {
    return this.events.listenerCount
  }

  onEvent(listener: PermissionListener): Subscription {
    return this.events.on(listener)
  }

  /**
   * Asks and replies reach every client through the bus; a project's asks end with it (its turns are
   * cancelled first, this catches the rest).
   */
  attach({ bus, projects }: AttachContext): Disposable {
    const store = new DisposableStore()
    store.add(
      owned(
        this.onEvent((event) => {
          if (event.type === 'asked') bus.publish('permission:asked', event, event.request.projectId)
          else bus.publish('permission:replied', event, event.projectId)
        }),
      ),
    )
    store.add(
      owned(
        projects.onOpened((project) => {
          const { id } = project
          store.add(owned(project.track({ cancel: (reason) => this.cancelProject(id, reason) })))
        }),
      ),
    )
    return store
  }


  /** The decision for every pattern, without asking anyone. */
  async check(request: Omit<PermissionRequest, 'title' | 'always'>): Promise<PermissionAction> {
    const remembered = await this.remembered(request.projectId, request.sessionId, request.turnId)
    const readOnly = new Set(request.readOnly)
    let result: PermissionAction = 'allow'
    for (const pattern of request.patterns) {
      const action = decide(request.permission, pattern, request.ruleset, remembered, request.floors, readOnly.has(pattern))
      if (action === 'deny') return 'deny'
      if (action === 'ask') result = 'ask'
    }
    return request.forceAsk ? 'ask' : result
  }

  /**
   * Resolves when every pattern is allowed (by the rules, a remembered approval or the
   * user); rejects with `PermissionDeniedError` (a rule denies) or
   * `PermissionRejectedError` (the user said no).
   */
  async ask(request: PermissionRequest): Promise<void> {
    request.signal?.throwIfAborted()
    const remembered = await this.remembered(request.projectId, request.sessionId, request.turnId)
    const readOnly = new Set(request.readOnly)
    let needsAsk = false
    for (const pattern of request.patterns) {
      const action = decide(request.permission, pattern, request.ruleset, remembered, request.floors, readOnly.has(pattern))
      if (action === 'deny') {
        throw new PermissionDeniedError(request.permission, pattern, deniedBy(request.permission, pattern, request.ruleset, request.floors, readOnly.has(pattern)))
      }
      if (action === 'ask') needsAsk = true
    }
    if (!needsAsk && !request.forceAsk) return
    request.signal?.throwIfAborted()
    const info: PendingPermission = {
      id: `perm_${randomUUID()}`,
      sessionId: request.sessionId,
      projectId: request.projectId,
      permission: request.permission,
      patterns: [...request.patterns],
      always: [...request.always],
      title: request.title,
      createdAt: this.now(),
      ...(request.metadata ? { metadata: request.metadata } : {}),
      ...(request.forceAsk ? { forceAsk: true } : {}),
      ...(request.turnId ? { turnId: request.turnId } : {}),
      ...(request.messageId ? { messageId: request.messageId } : {}),
      ...(request.callId ? { callId: request.callId } : {}),
      ...(request.agent ? { agent: request.agent } : {}),
    }
    return new Promise<void>((resolve, reject) => {
      const signal = request.signal
      const onAbort = (): void => {
        if (!this.pendingById.delete(info.id)) return
        this.events.emit({ type: 'replied', id: info.id, sessionId: info.sessionId, projectId: info.projectId, reply: 'reject', auto: true })
        reject(signal?.reason)
      }
      const cleanup = (): void => signal?.removeEventListener('abort', onAbort)
      signal?.addEventListener('abort', onAbort, { once: true })
      this.pendingById.set(info.id, { info, ruleset: request.ruleset, floors: request.floors, readOnly, resolve, reject, cleanup })
      this.events.emit({ type: 'asked', request: info })
    })
  }

  /** Pending asks, oldest first, optionally of one project or session. */
  pending(filter: { projectId?: string; sessionId?: string } = {}): PendingPermission[] {
    return [...this.pendingById.values()]
      .map((p) => p.info)
      .filter((p) => (filter.projectId === undefined || p.projectId === filter.projectId) &&
        (filter.sessionId === undefined || p.sessionId === filter.sessionId))
      .sort((a, b) => a.createdAt - b.createdAt)
  }

  /** Answers a pending ask. Throws `NotFound` when it is not pending (answered elsewhere, or aborted). */
  async reply(id: string, reply: PermissionReply): Promise<void> {
    const pending = this.pendingById.get(id)
    if (!pending) throw new HotaruError(ErrorNames.NotFound, { message: `no pending permission request "${id}"`, id })
    const { info } = pending
    if (reply.reply === 'reject') {
      const feedback = reply.feedback?.trim() || undefined
      this.settle(pending, new PermissionRejectedError(id, feedback))
      this.events.emit({ type: 'replied', id, sessionId: info.sessionId, projectId: info.projectId, reply: 'reject', ...(feedback ? { feedback } : {}) })
      // Without feedback the turn stops, so nothing else of this session should stay waiting.
      if (!feedback) {
        for (const other of [...this.pendingById.values()]) {
          if (other.info.sessionId !== info.sessionId) continue
          this.settle(other, new PermissionRejectedError(other.info.id))
          this.events.emit({ type: 'replied', id: other.info.id, sessionId: info.sessionId, projectId: info.projectId, reply: 'reject', auto: true })
        }
      }
      return
    }
    if (reply.reply === 'always' && info.always.length > 0) {
      const scope = reply.scope ?? 'session'
      await this.remember(info, scope)
      this.settle(pending)
      this.events.emit({ type: 'replied', id, sessionId: info.sessionId, projectId: info.projectId, reply: 'always', scope })
      await this.resolveCovered(info, scope)
      return
    }
    this.settle(pending)
    this.events.emit({ type: 'replied', id, sessionId: info.sessionId, projectId: info.projectId, reply: 'once' })
  }

  /** Drops turn-scoped approvals of a session's turn. */
  endTurn(sessionId: string, turnId: string): void {
    this.turnRules.delete(turnKey(sessionId, turnId))
  }

  /** The project closed: its pending asks are rejected with that reason (the UI drops them). */
  cancelProject(projectId: string, reason: string): void {
    for (const pending of [...this.pendingById.values()]) {
      if (pending.info.projectId !== projectId) continue
      this.settle(pending, new HotaruError('PermissionCancelled', { message: reason }))
      this.events.emit({ type: 'replied', id: pending.info.id, sessionId: pending.info.sessionId, projectId, reply: 'reject', auto: true })
    }
  }

  /** Rejects a session's pending asks (the session was stopped) and, with `forget`, its approvals. */
  cancelSession(sessionId: string, options: { forget?: boolean } = {}): void {
    for (const pending of [...this.pendingById.values()]) {
      if (pending.info.sessionId !== sessionId) continue
      this.settle(pending, new PermissionRejectedError(pending.info.id))
      this.events.emit({ type: 'replied', id: pending.info.id, sessionId, projectId: pending.info.projectId, reply: 'reject', auto: true })
    }
    if (!options.forget) return
    this.sessionRules.delete(sessionId)
    for (const key of [...this.turnRules.keys()]) if (key.startsWith(`${sessionId}\u0000`)) this.turnRules.delete(key)
  }

  /** Approvals remembered for a project (its main project's, for a worktree) and a session, for display. */
  async approvals(projectId: string, sessionId?: string): Promise<Array<Rule & { scope: ApprovalScope }>> {
    const owner = this.owner(projectId)
    const persisted = (await this.persistedRules(owner)).map((r) => ({ ...r, scope: 'persisted' as const }))
    const project = (this.projectRules.get(owner) ?? []).map((r) => ({ ...r, scope: 'project' as const }))
    const session = sessionId ? (this.sessionRules.get(sessionId) ?? []).map((r) => ({ ...r, scope: 'session' as const })) : []
    return [...persisted, ...project, ...session]
  }

  /** Forgets a remembered approval; later asks it covered are asked again (in every tree of the project). */
  async revoke(projectId: string, rule: Pick<Rule, 'permission' | 'pattern'>, scope: ApprovalScope, sessionId?: string): Promise<boolean> {
    const owner = this.owner(projectId)
    const keep = (r: Rule): boolean => r.permission !== rule.permission || r.pattern !== rule.pattern
    const drop = (map: Map<string, Rule[]>, key: string | undefined): boolean => {
      const list = key ? map.get(key) : undefined
      if (!key || !list) return false
      map.set(key, list.filter(keep))
      return list.some((r) => !keep(r))
    }
    if (scope === 'session') return drop(this.sessionRules, sessionId)
    if (scope === 'project') return drop(this.projectRules, owner)
    if (scope === 'turn') return false
    const cached = await this.persistedRules(owner)
    const removed = (await this.options.store?.remove?.(owner, { ...rule, action: 'allow' })) ?? false
    this.persisted.set(owner, Promise.resolve(cached.filter(keep)))
    return removed
  }

  /** Rejects everything pending; used when the app or CLI run ends. */
  dispose(): void {
    for (const pending of [...this.pendingById.values()]) this.settle(pending, new PermissionRejectedError(pending.info.id))
    this.events.clear()
  }

  private settle(pending: Pending, error?: unknown): void {
    this.pendingById.delete(pending.info.id)
    pending.cleanup()
    if (error) pending.reject(error)
    else pending.resolve()
  }

  private async remember(info: PendingPermission, scope: ApprovalScope): Promise<void> {
    const rules: Rule[] = info.always.map((pattern) => ({ permission: info.permission, pattern, action: 'allow' }))
    if (scope === 'turn') {
      // Without a turn id the narrowest lasting scope is the session.
      const key = info.turnId ? turnKey(info.sessionId, info.turnId) : undefined
      if (key) push(this.turnRules, key, rules)
      else push(this.sessionRules, info.sessionId, rules)
    } else if (scope === 'session') push(this.sessionRules, info.sessionId, rules)
    else if (scope === 'project') push(this.projectRules, this.owner(info.projectId), rules)
    else {
      const store = this.options.store
      const owner = this.owner(info.projectId)
      if (!store) {
        push(this.projectRules, owner, rules)
        return
      }
      const cached = await this.persistedRules(owner)
      for (const rule of rules) {
        await store.add(owner, rule)
        cached.push(rule)
      }
    }
  }

  /** After an "always", resolves the other pending asks the new approval now covers. */
  private async resolveCovered(source: PendingPermission, scope: ApprovalScope): Promise<void> {
    const owner = this.owner(source.projectId)
    for (const other of [...this.pendingById.values()]) {
      const info = other.info
      if (info.forceAsk || this.owner(info.projectId) !== owner) continue
      if ((scope === 'session' || scope === 'turn') && info.sessionId !== source.sessionId) continue
      const remembered = await this.remembered(info.projectId, info.sessionId, info.turnId)
      const allowed = info.patterns.every((p) => decide(info.permission, p, other.ruleset, remembered, other.floors, other.readOnly.has(p)) === 'allow')
      if (!allowed || !this.pendingById.has(info.id)) continue
      this.settle(other)
      this.events.emit({ type: 'replied', id: info.id, sessionId: info.sessionId, projectId: info.projectId, reply: 'always', scope, auto: true })
    }
  }

  private owner(projectId: string): string {
    return this.options.ownerOf?.(projectId) ?? projectId
  }

  private async remembered(projectId: string, sessionId: string, turnId?: string): Promise<Rule[]> {
    const owner = this.owner(projectId)
    return [
      ...(await this.persistedRules(owner)),
      ...(this.projectRules.get(owner) ?? []),
      ...(this.sessionRules.get(sessionId) ?? []),
      ...(turnId ? (this.turnRules.get(turnKey(sessionId, turnId)) ?? []) : []),
    ]
  }

  private persistedRules(projectId: string): Promise<Rule[]> {
    const store = this.options.store
    if (!store) return Promise.resolve([])
    let cached = this.persisted.get(projectId)
    if (!cached) {
      cached = Promise.resolve(store.list(projectId)).then((rules) => [...rules])
      // A failed load is reported to the caller and retried next time rather than cached.
      cached.catch(() => this.persisted.delete(projectId))
      this.persisted.set(projectId, cached)
    }
    return cached
  }
}

function turnKey(sessionId: string, turnId: string): string {
  return `${sessionId}\u0000${turnId}`
}

function push(map: Map<string, Rule[]>, key: string, rules: Rule[]): void {
  const list = map.get(key) ?? []
  list.push(...rules)
  map.set(key, list)
}

/**
 * One pattern's decision: a configured deny always wins; otherwise a remembered
 * approval allows; otherwise the configured action (ask when no rule matches).
 * `readOnly`: the pattern is a read-only command, which `@read-only` rules match.
 */
export function decide(
  permission: string,
  pattern: string,
  ruleset: Ruleset,
  remembered: Ruleset,
  floors: readonly Ruleset[] = [],
  readOnly = false,
): PermissionAction {
  if (floors.some((floor) => findRuleOf(permission, pattern, readOnly, [floor])?.action === 'deny')) return 'deny'
  const configured = findRuleOf(permission, pattern, readOnly, [ruleset])
  if (configured?.action === 'deny') return 'deny'
  if (remembered.some((r) => r.action === 'allow' && r.pattern !== READ_ONLY_PATTERN && wildcardMatch(permission, r.permission) && wildcardMatch(pattern, r.pattern))) {
    return 'allow'
  }
  return configured?.action ?? 'ask'
}

/** The rule that denied: a floor's deny first (it is the one no other rule could lift). */
function deniedBy(permission: string, pattern: string, ruleset: Ruleset, floors: readonly Ruleset[] = [], readOnly = false): Rule | undefined {
  for (const floor of floors) {
    const rule = findRuleOf(permission, pattern, readOnly, [floor])
    if (rule?.action === 'deny') return rule
  }
  return findRuleOf(permission, pattern, readOnly, [ruleset])
}

/** The session facts the loop binds once per call, so tools only say what they ask for. */
export type AskBinding = Omit<PermissionRequest, keyof PermissionAsk>

/** `ToolContext.ask` for one call: the tool's ask plus the session, agent, ruleset and abort signal. */
export function bindAsk(service: PermissionService, binding: AskBinding): (ask: PermissionAsk) => Promise<void> {
  return (ask) => service.ask({ ...binding, ...ask })
}
