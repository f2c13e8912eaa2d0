import type { Effort } from '@shared/schema/effort'
import type { StoreApi } from 'zustand'
import type { EventPayload, HotaruBridge } from '@shared/ipc'
import type { AgentSummary, ModelSummary } from '@shared/ipc/agent'
import type { McpServerStatus } from '@shared/ipc/mcp'
import type { PendingPermission } from '@shared/ipc/permission'
import type { PendingQuestion } from '@shared/ipc/question'
import type { Session, SessionStatus } from '@shared/schema/session'
import { applyBatch, type SeqEvent, type Transcript } from './chat-model'
import { activity, activityRows } from './activity'
import { onResync } from './resync'
import { foldActivity, runningRoots, type SessionActivity } from './session-activity'
import { workspace, type ProjectStatus } from './workspace'

export type Todo = EventPayload<'session', 'todos'>['todos'][number]

/** A prompt sent but not yet in the transcript: shown under the messages ("queued" while a turn runs). */
export interface PendingPrompt {
  id: string
  text: string
  queued: boolean
  /** How many images it carries. */
  images?: number
}

export interface ChatState {
  projectId: string
  /** Every known session of the project, subagent runs included (they have a parentId). */
  sessions: Record<string, Session>
  listState: 'loading' | 'ready' | 'error'
  transcripts: Record<string, Transcript>
  statuses: Record<string, SessionStatus>
  /** What each running session does now (latest part), for sessions on screen or not. */
  activity: Record<string, SessionActivity>
  todos: Record<string, Todo[]>
  /** The last failed turn of a session, until the next one starts. */
  turnErrors: Record<string, string>
  /** Failures the user has had on screen (the session shown in the active tab): they no longer mark the tab. */
  seenErrors: Record<string, string>
  activeSessionId: string | null
  /**
   * The session made while the chat had none: it keeps the input that was on screen (its text, caret
   * and focus) instead of getting a fresh one, so typing on while it is created loses nothing.
   */
  fromNoSession: string | null
  showSessions: boolean
  pending: Record<string, PendingPrompt[]>
  /**
   * Prompts whose send failed (the connection dropped before the answer): kept so nothing typed is
   * lost, sent again only when the user says so (the server may have run them).
   */
  unsent: Record<string, string[]>
  /** Open/closed state of cards (tool calls, reasoning, subagent runs) by part id; survives virtualization. */
  expanded: Record<string, boolean>
  permissions: PendingPermission[]
  questions: PendingQuestion[]
  agents: AgentSummary[]
  models: ModelSummary[]
  mcp: McpServerStatus[]
  /** Agent/model picked for a session (or '' before one exists); sent with the next prompt. */
  /** What the composer picked per session ('' before there is one); sent with the next prompt. */
  choices: Record<string, { agent?: string; model?: string; effort?: Effort }>
}

export type ChatStore = StoreApi<ChatState>

export function initialChatState(projectId: string): ChatState {
  return {
    projectId,
    sessions: {},
    listState: 'loading',
    transcripts: {},
    statuses: {},
    activity: {},
    todos: {},
    turnErrors: {},
    seenErrors: {},
    activeSessionId: null,
    fromNoSession: null,
    showSessions: false,
    pending: {},
    unsent: {},
    expanded: {},
    permissions: [],
    questions: [],
    agents: [],
    models: [],
    mcp: [],
    choices: {},
  }
}

/** What the tab's status dot shows: a question for the user beats work in progress beats a failure. */
export function projectStatusOf(s: ChatState): ProjectStatus {
  if (s.permissions.length > 0 || s.questions.length > 0) return 'waiting'
  if (Object.values(s.statuses).some((st) => st.type !== 'idle')) return 'running'
  // A failure the user has looked at stays on its message (with Retry) but no longer calls for attention.
  if (Object.entries(s.turnErrors).some(([id, message]) => s.seenErrors[id] !== message)) return 'error'
  return 'idle'
}

/**
 * Receives a project's session events and applies them once per animation
 * frame, in order (a timer stands in when frames do not run, e.g. a hidden
 * window). `flush()` applies what is queued at once, before a snapshot lands.
 */
export class EventQueue {
  private queue: SeqEvent[] = []
  private frame: number | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  /** Ids of user messages seen in events: their parts tell nothing about what the agent does. */
  private readonly userMessages = new Set<string>()

  constructor(private readonly store: ChatStore, private readonly resync: (sessionId: string) => void, private readonly onUserText: (sessionId: string, text: string) => void) {}

  push(event: SeqEvent): void {
    this.queue.push(event)
    if (this.frame === null) this.frame = requestAnimationFrame(() => this.flush())
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), 250)
  }

  flush(): void {
    if (this.frame !== null) cancelAnimationFrame(this.frame)
    if (this.timer !== null) clearTimeout(this.timer)
    this.frame = null
    this.timer = null
    if (this.queue.length === 0) return
    const events = this.queue
    this.queue = []
    const s = this.store.getState()
    const result = applyBatch({ sessions: s.sessions, transcripts: s.transcripts }, events)
    const activity = foldActivity(s.activity, events, this.userMessages)
    if (result.sessions !== s.sessions || result.transcripts !== s.transcripts || activity !== s.activity) {
      this.store.setState({ sessions: result.sessions, transcripts: result.transcripts, activity })
    }
    for (const { sessionId, text } of result.userTexts) this.onUserText(sessionId, text)
    for (const sessionId of new Set(result.resync)) this.resync(sessionId)
  }

  dispose(): void {
    this.queue = []
    if (this.frame !== null) cancelAnimationFrame(this.frame)
    if (this.timer !== null) clearTimeout(this.timer)
  }
}

/** Subscribes the store to the project's events; returns the unsubscribers. */
export function wireChatEvents(
  bridge: HotaruBridge,
  store: ChatStore,
  queue: EventQueue,
  hooks: {
    onTurnEnded(payload: EventPayload<'agent', 'turnEnded'>): void
    onResync(): void
    onMcpTools(): void
    /** A permission ask or question arrived (its notice is up to the controller). */
    onAsked(id: string, sessionId: string, what: string): void
  },
): (() => void)[] {
  const { projectId } = store.getState()
  const mine = (envelope: { projectId?: string }): boolean => envelope.projectId === projectId
  const seq =
    <K extends SeqEvent['kind']>(kind: K) =>
    (envelope: { projectId?: string; payload: Extract<SeqEvent, { kind: K }>['payload'] }) => {
      if (mine(envelope)) queue.push({ kind, payload: envelope.payload } as SeqEvent)
    }
  const set = store.setState
  return [
    bridge.session.onUpdated(seq('updated')),
    bridge.session.onDeleted(seq('deleted')),
    bridge.session.onMessage(seq('message')),
    bridge.session.onPart(seq('part')),
    bridge.session.onDelta(seq('delta')),
    bridge.session.onPartRemoved(seq('partRemoved')),
    bridge.session.onTruncated(seq('truncated')),
    bridge.session.onStatus((e) => {
      if (!mine(e)) return
      // Parts queued before the status belong before it (an idle session keeps no activity).
      queue.flush()
      const { sessionId, status } = e.payload
      set((s) => {
        const statuses = { ...s.statuses }
        if (status.type === 'idle') delete statuses[sessionId]
        else statuses[sessionId] = status
        const turnErrors = { ...s.turnErrors }
        if (status.type === 'busy') delete turnErrors[sessionId]
        if (status.type !== 'idle' || !s.activity[sessionId]) return { statuses, turnErrors }
        const { [sessionId]: _done, ...activity } = s.activity
        return { statuses, turnErrors, activity }
      })
    }),
    bridge.session.onTodos((e) => {
      if (mine(e)) set((s) => ({ todos: { ...s.todos, [e.payload.sessionId]: e.payload.todos } }))
    }),
    bridge.agent.onTurnEnded((e) => {
      if (!mine(e)) return
      // Events queued before the turn's end belong before it (the user message of a queued prompt).
      queue.flush()
      hooks.onTurnEnded(e.payload)
    }),
    bridge.permission.onAsked((e) => {
      if (!mine(e)) return
      const request = e.payload.request
      if (store.getState().permissions.some((p) => p.id === request.id)) return
      set((s) => ({ permissions: [...s.permissions, request] }))
      hooks.onAsked(request.id, request.sessionId, `asks permission: ${request.title}`)
    }),
    bridge.permission.onReplied((e) => {
      if (!mine(e)) return
      set((s) => ({ permissions: s.permissions.filter((p) => p.id !== e.payload.id) }))
      activity.resolved(e.payload.id)
    }),
    bridge.question.onAsked((e) => {
      if (!mine(e)) return
      const question = e.payload.question
      if (store.getState().questions.some((q) => q.id === question.id)) return
      set((s) => ({ questions: [...s.questions, question] }))
      hooks.onAsked(question.id, question.sessionId, `asks: ${question.questions[0]?.question ?? 'a question'}`)
    }),
    bridge.question.onAnswered((e) => {
      if (!mine(e)) return
      set((s) => ({ questions: s.questions.filter((q) => q.id !== e.payload.id) }))
      activity.resolved(e.payload.id)
    }),
    bridge.mcp.onStatus((e) => {
      if (!mine(e)) return
      const status = e.payload
      set((s) => {
        const index = s.mcp.findIndex((m) => m.name === status.name)
        const mcp = [...s.mcp]
        if (index >= 0) mcp[index] = status
        else mcp.push(status)
        return { mcp }
      })
    }),
    // The servers' tools changed (a server connected, restarted or changed its list): re-read their counts.
    bridge.mcp.onTools((e) => {
      if (mine(e)) hooks.onMcpTools()
    }),
    onResync(hooks.onResync),
    store.subscribe((s) => {
      workspace.setProjectStatus(projectId, projectStatusOf(s), runningRoots(s).length)
      activity.report(projectId, activityRows(s))
    }),
    () => activity.forget(projectId),
  ]
}
