import { create } from 'zustand'
import type { ChatState } from './project-chat'
import { BADGE_LABEL, describeActivity, rootOf, runningRoots, sessionBadge, waitingRoots, type SessionBadge } from './session-activity'

/** One running session in the window-wide Activity view. */
export interface ActivityRow {
  /** The session's project: a tab's main folder or one of its worktrees. */
  projectId: string
  sessionId: string
  title: string
  badge: SessionBadge
  /** What it does now, e.g. "running bash: npm test". */
  doing: string
}

/** A notice that a session not on screen needs the user, with the way to open it. */
export interface AskNotice {
  /** The permission ask's or question's id: the notice goes when it is answered. */
  id: string
  projectId: string
  sessionId: string
  title: string
  body: string
}

interface ActivityState {
  rows: Record<string, ActivityRow[]>
  open: boolean
  notices: AskNotice[]
}

export const useActivity = create<ActivityState>(() => ({ rows: {}, open: false, notices: [] }))

/** The running root sessions of one project's chat, in the order they were created. */
export function activityRows(s: ChatState): ActivityRow[] {
  const waiting = waitingRoots(s)
  return runningRoots(s)
    .map((id) => ({
      projectId: s.projectId,
      sessionId: id,
      title: s.sessions[id]?.title ?? 'New session',
      badge: sessionBadge(s, id, waiting),
      doing: describeActivity(s, id, waiting),
    }))
    .sort((a, b) => (s.sessions[a.sessionId]?.createdAt ?? 0) - (s.sessions[b.sessionId]?.createdAt ?? 0) || (a.sessionId < b.sessionId ? -1 : 1))
}

const keys = new Map<string, string>()

export const activity = {
  /** A project's chat reports its running sessions (called on every change of its store; cheap when equal). */
  report(projectId: string, rows: ActivityRow[]): void {
    const key = JSON.stringify(rows)
    if (keys.get(projectId) === key) return
    keys.set(projectId, key)
    useActivity.setState((s) => ({ rows: { ...s.rows, [projectId]: rows } }))
  },
  forget(projectId: string): void {
    keys.delete(projectId)
    useActivity.setState((s) => {
      const { [projectId]: _gone, ...rows } = s.rows
      return { rows, notices: s.notices.filter((n) => n.projectId !== projectId) }
    })
  },
  setOpen(open: boolean): void {
    useActivity.setState({ open })
  },
  notify(notice: AskNotice): void {
    useActivity.setState((s) => (s.notices.some((n) => n.id === notice.id) ? s : { notices: [...s.notices, notice] }))
  },
  /** After a reload of a project's pending asks: notices of asks no longer pending go. */
  keepOnly(projectId: string, pending: Set<string>): void {
    useActivity.setState((s) => {
      const notices = s.notices.filter((n) => n.projectId !== projectId || pending.has(n.id))
      return notices.length === s.notices.length ? s : { notices }
    })
  },
  /** The ask was answered (here, in another window, or it ended with its turn). */
  resolved(id: string): void {
    useActivity.setState((s) => (s.notices.some((n) => n.id === id) ? { notices: s.notices.filter((n) => n.id !== id) } : s))
  },
}

/** Every running session of every open project, in tab order is up to the caller. */
export function allRows(s: ActivityState): ActivityRow[] {
  return Object.values(s.rows).flat()
}

/** The notice text for an ask of `sessionId` (a subagent run's ask names its caller's session). */
export function askNotice(s: ChatState, id: string, sessionId: string, what: string): AskNotice {
  const root = rootOf(s.sessions, sessionId)
  return { id, projectId: s.projectId, sessionId: root, title: s.sessions[root]?.title ?? 'A session', body: what }
}

export { BADGE_LABEL }
