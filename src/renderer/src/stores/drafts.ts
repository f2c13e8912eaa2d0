/**
 * Unsent composer text per chat (a project's or a worktree's) and session, kept while switching
 * sessions or tabs. A chat with no session yet has a draft of its own (`sessionId` null).
 */
const drafts = new Map<string, string>()

const keyOf = (projectId: string, sessionId: string | null): string => `${projectId}:${sessionId ?? ''}`

export function draftOf(projectId: string, sessionId: string | null): string {
  return drafts.get(keyOf(projectId, sessionId)) ?? ''
}

export function setDraft(projectId: string, sessionId: string | null, text: string): void {
  if (text) drafts.set(keyOf(projectId, sessionId), text)
  else drafts.delete(keyOf(projectId, sessionId))
}

/**
 * What was typed while the chat had no session belongs to the session made next: the composer is
 * shown before the first session exists (a new worktree's chat opens while its session is created).
 */
export function moveNoSessionDraft(projectId: string, sessionId: string): void {
  const text = draftOf(projectId, null)
  if (!text) return
  setDraft(projectId, null, '')
  if (!draftOf(projectId, sessionId)) setDraft(projectId, sessionId, text)
}
