import type { Part, Session } from '@shared/schema/session'
import type { SeqEvent } from './chat-model'
import type { ChatState } from './project-chat'

/**
 * What a running session is doing now, taken from its latest part. Kept for
 * every session of the project, also those whose transcript was never loaded,
 * so the session list and the Activity view can say it without loading it.
 */
export type SessionActivity =
  | { kind: 'writing' }
  | { kind: 'thinking' }
  | { kind: 'tool'; tool: string; title?: string }
  | { kind: 'waiting-model' }

/** The status badge of a session: a question for the user beats work in progress beats a failure. */
export type SessionBadge = 'waiting' | 'retrying' | 'streaming' | 'error' | 'idle'

export const BADGE_LABEL: Record<SessionBadge, string> = {
  waiting: 'waiting for permission',
  retrying: 'retrying',
  streaming: 'streaming',
  error: 'error',
  idle: 'idle',
}

function activityOfPart(part: Part): SessionActivity | null {
  switch (part.type) {
    case 'text':
      return { kind: 'writing' }
    case 'reasoning':
      return { kind: 'thinking' }
    case 'tool':
      if (part.state.status === 'pending' || part.state.status === 'running') {
        return { kind: 'tool', tool: part.tool, ...(part.state.title ? { title: part.state.title } : {}) }
      }
      return { kind: 'waiting-model' }
    case 'step-start':
    case 'step-finish':
      return { kind: 'waiting-model' }
    // These say nothing new about what the agent does: late diagnostics and failed hooks arrive beside the work,
    // a compaction marker is followed by the next step, and images belong to user messages.
    case 'context':
    case 'hook':
    case 'compaction':
    case 'image':
      return null
  }
}

/**
 * Folds a batch of session events into the activity map (copy on first change). `userMessages` holds the
 * ids of user messages seen so far: their parts say nothing about what the agent does.
 */
export function foldActivity(
  activity: Record<string, SessionActivity>,
  events: readonly SeqEvent[],
  userMessages: Set<string>,
): Record<string, SessionActivity> {
  let next = activity
  for (const event of events) {
    if (event.kind === 'message') {
      if (event.payload.message.role === 'user') userMessages.add(event.payload.message.id)
      continue
    }
    if (event.kind === 'deleted' && next[event.payload.sessionId]) {
      if (next === activity) next = { ...activity }
      delete next[event.payload.sessionId]
      continue
    }
    if (event.kind !== 'part' || userMessages.has(event.payload.part.messageId)) continue
    const found = activityOfPart(event.payload.part)
    if (!found) continue
    const sessionId = event.payload.sessionId
    if (sameActivity(next[sessionId], found)) continue
    if (next === activity) next = { ...activity }
    next[sessionId] = found
  }
  return next
}

function sameActivity(a: SessionActivity | undefined, b: SessionActivity): boolean {
  if (!a || a.kind !== b.kind) return false
  return a.kind !== 'tool' || b.kind !== 'tool' || (a.tool === b.tool && a.title === b.title)
}

/** The top-level session a session belongs to (a subagent run's caller, up the chain). */
export function rootOf(sessions: Record<string, Session>, sessionId: string): string {
  let id = sessionId
  for (let depth = 0; depth < 32; depth++) {
    const parent = sessions[id]?.parentId
    if (!parent) return id
    id = parent
  }
  return id
}

/** Root sessions with a permission ask or a question waiting, including those of their subagent runs. */
export function waitingRoots(s: Pick<ChatState, 'sessions' | 'permissions' | 'questions'>): Set<string> {
  const ids = new Set<string>()
  for (const ask of s.permissions) ids.add(rootOf(s.sessions, ask.sessionId))
  for (const question of s.questions) ids.add(rootOf(s.sessions, question.sessionId))
  return ids
}

export function sessionBadge(s: ChatState, sessionId: string, waiting = waitingRoots(s)): SessionBadge {
  if (waiting.has(sessionId)) return 'waiting'
  const status = s.statuses[sessionId]
  if (status?.type === 'retry') return 'retrying'
  if (status && status.type !== 'idle') return 'streaming'
  if (s.turnErrors[sessionId] !== undefined) return 'error'
  return 'idle'
}

/** Top-level sessions with a turn running (queued, streaming, retrying or waiting for the user). */
export function runningRoots(s: ChatState): string[] {
  const ids = new Set<string>()
  for (const [id, status] of Object.entries(s.statuses)) if (status.type !== 'idle') ids.add(rootOf(s.sessions, id))
  for (const id of waitingRoots(s)) ids.add(id)
  return [...ids]
}

/** One line for what a running session does now, e.g. "running bash: npm test". */
export function describeActivity(s: ChatState, sessionId: string, waiting = waitingRoots(s)): string {
  if (waiting.has(sessionId)) {
    const ask = s.permissions.find((p) => rootOf(s.sessions, p.sessionId) === sessionId)
    return ask ? `waiting for permission: ${ask.title}` : 'waiting for your answer'
  }
  const status = s.statuses[sessionId]
  if (status?.type === 'retry') return `retrying (attempt ${status.attempt}): ${status.message}`
  // A subagent run that is working tells more than its caller waiting on the task tool.
  const child = Object.values(s.sessions).find((c) => c.parentId === sessionId && s.statuses[c.id] && s.activity[c.id])
  const activity = (child ? s.activity[child.id] : undefined) ?? s.activity[sessionId]
  const prefix = child ? `subagent ${child.title}: ` : ''
  if (!activity) return `${prefix}working`
  switch (activity.kind) {
    case 'writing':
      return `${prefix}streaming text`
    case 'thinking':
      return `${prefix}thinking`
    case 'tool':
      return `${prefix}running ${activity.tool}${activity.title ? `: ${activity.title}` : ''}`
    case 'waiting-model':
      return `${prefix}waiting for the model`
  }
}
