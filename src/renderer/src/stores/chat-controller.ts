import type { Effort } from '@shared/schema/effort'
import { createStore } from 'zustand'
import type { ErrorData } from '@shared/errors'
import type { ImageUpload } from '@shared/schema/image'
import type { EventPayload, HotaruBridge, MethodInput } from '@shared/ipc'
import { errorMessage, unwrap } from '../ipc'
import { loadingTranscript, transcriptFrom, EMPTY_TRANSCRIPT } from './chat-model'
import { CheckpointsController } from './checkpoints'
import { usePreferences } from './preferences'
import { EventQueue, initialChatState, wireChatEvents, type ChatState, type ChatStore, type PendingPrompt } from './project-chat'
import { useWorkspace, workspace } from './workspace'
import { activity, askNotice } from './activity'
import { shownChatProject } from './chat-scope'
import { existingProjectStore } from './project'
import { background } from '../lib/background'
import { moveNoSessionDraft } from './drafts'

/** once / always (with its scope) / reject (with optional feedback to the model). */
export type PermissionReply = Omit<MethodInput<'permission', 'reply'>, 'id'>

const ACTIVE_KEY = (projectId: string): string => `hotaru.chat.active.${projectId}`
let nextPromptId = 1

/**
 * The agent chat of one project: a store mirrored from session, agent,
 * permission, question and MCP events, and the actions the UI takes on it.
 * Lives as long as the project tab.
 */
export class ChatController {
  readonly store: ChatStore
  readonly checkpoints: CheckpointsController
  private readonly queue: EventQueue
  private readonly unsubscribers: (() => void)[]
  /** Sessions whose user message arrived since their last turn ended (a turn that never started leaves none). */
  private readonly startedSinceTurnEnd = new Set<string>()
  /** The last prompt sent to each session: Retry sends it again, ArrowUp in an empty input brings it back. */
  private readonly lastSent = new Map<string, string>()
  /** The session being created for a chat that has none yet: a message sent meanwhile goes to it. */
  private creating: Promise<string | null> | null = null

  constructor(
    readonly bridge: HotaruBridge,
    readonly projectId: string,
  ) {
    this.store = createStore<ChatState>(() => initialChatState(projectId))
    this.checkpoints = new CheckpointsController(bridge, projectId)
    this.queue = new EventQueue(
      this.store,
      (id) => background('loadTranscript', this.loadTranscript(id)),
      (id, text) => this.promptArrived(id, text),
    )
    this.unsubscribers = wireChatEvents(bridge, this.store, this.queue, {
      onTurnEnded: (payload) => this.turnEnded(payload),
      onResync: () => background('resync', this.resync()),
      onMcpTools: () => background('mcp tools', this.refreshMcp()),
      onAsked: (id, sessionId, what) => {
        if (!this.onScreen()) activity.notify(askNotice(this.state, id, sessionId, what))
      },
    })
    background('start', this.start())
  }

  private get state(): ChatState {
    return this.store.getState()
  }

  private set(patch: Partial<ChatState> | ((s: ChatState) => Partial<ChatState>)): void {
    this.store.setState(patch)
  }

  private async start(): Promise<void> {
    await Promise.all([this.refreshSessions(), this.refreshPending(), this.loadCatalog(), this.refreshMcp(), this.refreshRunning()])
    const saved = localStorage.getItem(ACTIVE_KEY(this.projectId))
    const roots = this.rootSessions()
    const initial = (saved && this.state.sessions[saved] ? saved : null) ?? roots[0]?.id ?? null
    if (initial && this.state.activeSessionId === null) this.selectSession(initial)
  }

  /**
   * Whether this chat's asks are in front of the user now: the page is visible, its tab is the active one,
   * it shows this chat (main folder or worktree) and the agent panel is open (the dock shows every ask of it).
   */
  private onScreen(): boolean {
    if (document.visibilityState !== 'visible') return false
    const { activeId } = useWorkspace.getState()
    if (!activeId || shownChatProject(activeId) !== this.projectId) return false
    return existingProjectStore(activeId)?.getState().view.right ?? false
  }

  dispose(): void {
    for (const off of this.unsubscribers) off()
    this.queue.dispose()
    this.checkpoints.dispose()
  }

  rootSessions() {
    return Object.values(this.state.sessions)
      .filter((s) => s.parentId === null)
      .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1))
  }

  async refreshSessions(): Promise<void> {
    try {
      const list = await unwrap(this.bridge.session.list({ projectId: this.projectId, includeChildren: true }))
      this.set({ sessions: Object.fromEntries(list.map((s) => [s.id, s])), listState: 'ready' })
    } catch (error) {
      console.warn('[chat] sessions not listed:', errorMessage(error))
      this.set({ listState: 'error' })
    }
  }

  /** Which sessions have a turn running now (a page opened mid-turn, or back after a lost connection). */
  async refreshRunning(): Promise<void> {
    const result = await this.bridge.session.running({ projectId: this.projectId })
    if (!result.ok) {
      console.warn('[chat] running sessions not listed:', result.error.data.message)
      return
    }
    this.set((s) => {
      const statuses = { ...s.statuses }
      for (const { sessionId, status } of result.value) statuses[sessionId] ??= status
      return { statuses }
    })
  }

  async refreshPending(): Promise<void> {
    const [permissions, questions] = await Promise.all([
      this.bridge.permission.pending({ projectId: this.projectId }),
      this.bridge.question.pending({ projectId: this.projectId }),
    ])
    if (permissions.ok) this.set({ permissions: permissions.value })
    if (questions.ok) this.set({ questions: questions.value })
    if (permissions.ok && questions.ok) activity.keepOnly(this.projectId, new Set([...permissions.value, ...questions.value].map((a) => a.id)))
  }

  async loadCatalog(): Promise<void> {
    const [agents, models] = await Promise.all([this.bridge.agent.agents({ projectId: this.projectId }), this.bridge.agent.models({})])
    if (agents.ok) this.set({ agents: agents.value })
    if (models.ok) this.set({ models: models.value })
  }

  async refreshMcp(): Promise<void> {
    const result = await this.bridge.mcp.list({ projectId: this.projectId })
    if (result.ok) this.set({ mcp: result.value })
  }

  /** Refresh: core re-reads the config and `.mcp.json` and restarts the servers. */
  async reloadMcp(): Promise<string | null> {
    const result = await this.bridge.mcp.reload({ projectId: this.projectId })
    if (!result.ok) return result.error.data.message
    this.set({ mcp: result.value })
    return null
  }

  /** Adds or replaces a local server in the project's `.mcp.json`; the servers restart with it. */
  async saveMcpServer(server: { name: string; command: string; args: string[] }): Promise<string | null> {
    const result = await this.bridge.mcp.saveServer({ projectId: this.projectId, ...server })
    if (!result.ok) return result.error.data.message
    this.set({ mcp: result.value })
    return null
  }

  async mcpAction(name: string, action: 'restart' | 'enable' | 'disable' | 'authenticate'): Promise<void> {
    try {
      const status = await unwrap(this.bridge.mcp[action]({ projectId: this.projectId, name }))
      this.set((s) => ({ mcp: s.mcp.map((m) => (m.name === name ? status : m)) }))
    } catch (error) {
      workspace.showError(`MCP ${action} ${name}: ${errorMessage(error)}`)
    }
  }

  /** After a reconnect: everything shown is fetched again (events may have been missed). */
  private async resync(): Promise<void> {
    this.set({ statuses: {} })
    await Promise.all([this.refreshSessions(), this.refreshPending(), this.refreshMcp(), this.refreshRunning()])
    const shown = Object.entries(this.state.transcripts).filter(([, t]) => t.status === 'ready').map(([id]) => id)
    await Promise.all(shown.map((id) => this.loadTranscript(id)))
  }

  /** Loads a session's messages once (or again after a gap in its events). */
  ensureTranscript(sessionId: string): void {
    const t = this.state.transcripts[sessionId]
    if (!t || t.status === 'error') background('loadTranscript', this.loadTranscript(sessionId))
  }

  private async loadTranscript(sessionId: string): Promise<void> {
    this.set((s) => ({ transcripts: { ...s.transcripts, [sessionId]: loadingTranscript(s.transcripts[sessionId]) } }))
    const [messages, status] = await Promise.all([
      this.bridge.session.messages({ sessionId }),
      this.bridge.session.status({ sessionId }),
    ])
    // Events that arrived before the snapshot are in it: drain them while the transcript is "loading".
    this.queue.flush()
    if (!this.state.transcripts[sessionId]) return
    this.set((s) => {
      const statuses = { ...s.statuses }
      if (status.ok && status.value.status.type !== 'idle') statuses[sessionId] = status.value.status
      else delete statuses[sessionId]
      const transcript = messages.ok
        ? transcriptFrom(messages.value)
        : { ...EMPTY_TRANSCRIPT, status: 'error' as const, error: messages.error.data.message }
      return { transcripts: { ...s.transcripts, [sessionId]: transcript }, statuses }
    })
  }

  selectSession(sessionId: string | null): void {
    this.set({ activeSessionId: sessionId, showSessions: false })
    if (sessionId) {
      localStorage.setItem(ACTIVE_KEY(this.projectId), sessionId)
      this.ensureTranscript(sessionId)
      this.checkpoints.ensure(sessionId)
    } else localStorage.removeItem(ACTIVE_KEY(this.projectId))
  }

  setShowSessions(show: boolean): void {
    this.set({ showSessions: show })
    if (show) this.checkpoints.setShowTimeline(false)
  }

  async newSession(): Promise<string | null> {
    const creating = this.createSession()
    this.creating = creating
    try {
      return await creating
    } finally {
      if (this.creating === creating) this.creating = null
    }
  }

  private async createSession(): Promise<string | null> {
    const prefs = usePreferences.getState()
    const choice = this.state.choices[''] ?? {}
    try {
      const session = await unwrap(
        this.bridge.session.create({
          projectId: this.projectId,
          ...((choice.agent ?? prefs.defaultAgent) ? { agent: choice.agent ?? prefs.defaultAgent } : {}),
          ...((choice.model ?? prefs.defaultModel) ? { model: choice.model ?? prefs.defaultModel } : {}),
          ...(choice.effort ? { effort: choice.effort } : {}),
        }),
      )
      this.queue.flush()
      this.set((s) => ({
        sessions: { ...s.sessions, [session.id]: s.sessions[session.id] ?? session },
        // Brand new: nothing to load.
        transcripts: s.transcripts[session.id] ? s.transcripts : { ...s.transcripts, [session.id]: EMPTY_TRANSCRIPT },
      }))
      if (this.state.activeSessionId === null) {
        moveNoSessionDraft(this.projectId, session.id)
        this.set({ fromNoSession: session.id })
      }
      this.selectSession(session.id)
      return session.id
    } catch (error) {
      workspace.showError(`Could not start a session: ${errorMessage(error)}`)
      return null
    }
  }

  async renameSession(sessionId: string, title: string): Promise<void> {
    try {
      const session = await unwrap(this.bridge.session.rename({ sessionId, title }))
      this.set((s) => ({ sessions: { ...s.sessions, [session.id]: session } }))
    } catch (error) {
      workspace.showError(`Rename failed: ${errorMessage(error)}`)
    }
  }

  async deleteSession(sessionId: string): Promise<void> {
    try {
      await unwrap(this.bridge.session.delete({ sessionId }))
    } catch (error) {
      workspace.showError(`Delete failed: ${errorMessage(error)}`)
      return
    }
    this.queue.flush()
    this.set((s) => {
      const sessions = { ...s.sessions }
      const transcripts = { ...s.transcripts }
      for (const id of [sessionId, ...Object.values(s.sessions).filter((x) => x.parentId === sessionId).map((x) => x.id)]) {
        delete sessions[id]
        delete transcripts[id]
      }
      return { sessions, transcripts }
    })
    if (this.state.activeSessionId === sessionId) {
      // Deleting from the list keeps the list open.
      const showSessions = this.state.showSessions
      this.selectSession(this.rootSessions()[0]?.id ?? null)
      this.set({ showSessions })
    }
  }

  /** A new session with the conversation up to a checkpoint (and its files when `code`). */
  async fork(checkpointId: string, code: boolean): Promise<void> {
    try {
      const session = await unwrap(this.bridge.checkpoint.fork({ checkpointId, code }))
      this.queue.flush()
      this.set((s) => ({ sessions: { ...s.sessions, [session.id]: s.sessions[session.id] ?? session } }))
      this.checkpoints.setShowTimeline(false)
      this.selectSession(session.id)
    } catch (error) {
      workspace.showError(`Fork failed: ${errorMessage(error)}`)
    }
  }

  setChoice(sessionId: string | null, patch: { agent?: string; model?: string; effort?: Effort }): void {
    const key = sessionId ?? ''
    this.set((s) => ({ choices: { ...s.choices, [key]: { ...s.choices[key], ...patch } } }))
  }

  /**
   * Sends a prompt to the active session (starting one if needed); shown as pending until it lands. Answers the
   * error when the message did not reach the transcript: a message with images is then handed back to the
   * composer whole (a model without vision refuses it before anything is stored), so the user can switch model
   * and send it again.
   */
  async send(text: string, images: ImageUpload[] = []): Promise<ErrorData | undefined> {
    // Sent while the chat's first session is being created (a new worktree's): to that session, not another.
    const sessionId = this.state.activeSessionId ?? (await (this.creating ?? this.newSession()))
    if (!sessionId) return { name: 'NoSession', data: { message: 'no session to send to' } }
    this.lastSent.set(sessionId, text)
    const pending: PendingPrompt = { id: `p${nextPromptId++}`, text, queued: this.isBusy(sessionId), ...(images.length ? { images: images.length } : {}) }
    this.set((s) => {
      const turnErrors = { ...s.turnErrors }
      delete turnErrors[sessionId]
      return { pending: { ...s.pending, [sessionId]: [...(s.pending[sessionId] ?? []), pending] }, turnErrors }
    })
    const choice = this.state.choices[sessionId] ?? {}
    // Changes rejected in a review are reported by core, ahead of this message.
    const result = await this.bridge.agent.prompt({
      sessionId,
      text,
      ...(choice.agent ? { agent: choice.agent } : {}),
      ...(choice.model ? { model: choice.model } : {}),
      ...(choice.effort ? { effort: choice.effort } : {}),
      ...(images.length ? { images } : {}),
    })
    if (result.ok) {
      if (result.value.queued) this.updatePending(sessionId, (list) => list.map((p) => (p.id === pending.id ? { ...p, queued: true } : p)))
      return undefined
    }
    this.updatePending(sessionId, (list) => list.filter((p) => p.id !== pending.id))
    if (result.error.name === 'Disconnected' && images.length === 0) {
      this.set((s) => ({ unsent: { ...s.unsent, [sessionId]: [...(s.unsent[sessionId] ?? []), text] } }))
      return result.error
    }
    this.set((s) => ({ turnErrors: { ...s.turnErrors, [sessionId]: result.error.data.message } }))
    return result.error
  }

  /** The prompt last sent to a session from here, if any. */
  lastPrompt(sessionId: string): string | undefined {
    return this.lastSent.get(sessionId)
  }

  /** Sends a session's last prompt again, after its turn failed (a provider that was down, say). */
  async retry(sessionId: string): Promise<void> {
    const text = this.lastSent.get(sessionId)
    if (text === undefined) return
    if (this.state.activeSessionId !== sessionId) this.selectSession(sessionId)
    // A failure shows in the chat as any send's does (the turn error, or the message offered to send again).
    await this.send(text)
  }

  /** Sends an unsent prompt again (the user's choice), or drops it. */
  async resend(sessionId: string, index: number, send: boolean): Promise<void> {
    const text = this.state.unsent[sessionId]?.[index]
    this.set((s) => ({ unsent: { ...s.unsent, [sessionId]: (s.unsent[sessionId] ?? []).filter((_, i) => i !== index) } }))
    if (send && text !== undefined) await this.send(text, [])
  }

  isBusy(sessionId: string): boolean {
    const status = this.state.statuses[sessionId]
    return status !== undefined && status.type !== 'idle'
  }

  async abort(sessionId = this.state.activeSessionId): Promise<void> {
    if (!sessionId) return
    const result = await this.bridge.agent.abort({ sessionId })
    if (!result.ok) workspace.showError(`Stop failed: ${result.error.data.message}`)
  }

  async compact(sessionId = this.state.activeSessionId): Promise<void> {
    if (!sessionId) return
    const result = await this.bridge.agent.compact({ sessionId })
    if (!result.ok) this.set((s) => ({ turnErrors: { ...s.turnErrors, [sessionId]: `Compaction failed: ${result.error.data.message}` } }))
  }

  private updatePending(sessionId: string, update: (list: PendingPrompt[]) => PendingPrompt[]): void {
    this.set((s) => ({ pending: { ...s.pending, [sessionId]: update(s.pending[sessionId] ?? []) } }))
  }

  /** A user message reached the transcript: its pending copy goes (the same text, else the oldest). */
  private promptArrived(sessionId: string, text: string): void {
    this.startedSinceTurnEnd.add(sessionId)
    // A prompt reported unsent that the server did receive after all: not offered for sending again.
    const unsent = this.state.unsent[sessionId]
    if (unsent?.some((u) => text.endsWith(u))) this.set((s) => ({ unsent: { ...s.unsent, [sessionId]: unsent.filter((u) => !text.endsWith(u)) } }))
    const list = this.state.pending[sessionId]
    if (!list?.length) return
    const index = Math.max(
      0,
      list.findIndex((p) => p.text === text),
    )
    this.updatePending(sessionId, (l) => l.filter((_, i) => i !== index))
  }

  private turnEnded(payload: EventPayload<'agent', 'turnEnded'>): void {
    const { sessionId, status, error } = payload
    const started = this.startedSinceTurnEnd.delete(sessionId)
    // A turn that failed before its message was stored leaves its pending prompt behind.
    if (!started && status === 'error') this.updatePending(sessionId, (list) => list.slice(1))
    if (status === 'error') {
      this.set((s) => ({ turnErrors: { ...s.turnErrors, [sessionId]: error?.data.message ?? 'the turn failed' } }))
    }
  }

  toggleExpanded(id: string, fallback: boolean): void {
    this.set((s) => ({ expanded: { ...s.expanded, [id]: !(s.expanded[id] ?? fallback) } }))
  }

  async replyPermission(id: string, reply: PermissionReply): Promise<void> {
    // Gone from the queue at once; the `replied` event confirms it (or the ask comes back on failure).
    const before = this.state.permissions
    this.set((s) => ({ permissions: s.permissions.filter((p) => p.id !== id) }))
    const result = await this.bridge.permission.reply({ id, ...reply })
    if (!result.ok) {
      this.set({ permissions: before })
      workspace.showError(`Permission reply failed: ${result.error.data.message}`)
    }
  }

  async answerQuestion(id: string, answers: string[][]): Promise<void> {
    const result = await this.bridge.question.answer({ id, answers })
    if (result.ok) this.set((s) => ({ questions: s.questions.filter((q) => q.id !== id) }))
    else workspace.showError(`Answer failed: ${result.error.data.message}`)
  }

  async dismissQuestion(id: string): Promise<void> {
    const result = await this.bridge.question.dismiss({ id })
    if (result.ok) this.set((s) => ({ questions: s.questions.filter((q) => q.id !== id) }))
  }
}
