import { useStore } from 'zustand'
import { StatusGlyph } from '../../components/StatusGlyph'
import type { ChatController } from '../../stores/chat'
import { BADGE_LABEL, describeActivity, sessionBadge } from '../../stores/session-activity'

/**
 * A session's live state in the list: a spinner and "streaming" (or "retrying"), "waiting for
 * permission", "error", "unmerged changes" (an idle session of a worktree with changes not merged
 * back), or a plain dot when idle. Its title says what the session does now.
 */
export function SessionBadgeMark({ chat, sessionId, unmerged = false }: { chat: ChatController; sessionId: string; unmerged?: boolean }) {
  const badge = useStore(chat.store, (s) => sessionBadge(s, sessionId))
  const doing = useStore(chat.store, (s) => (badge === 'idle' || badge === 'error' ? (s.turnErrors[sessionId] ?? '') : describeActivity(s, sessionId)))
  if (badge === 'idle' && unmerged) {
    return (
      <span className="session-badge unmerged" title="Its worktree has changes not merged back" data-testid="session-badge" data-badge="unmerged">
        <span className="session-badge-label">unmerged changes</span>
      </span>
    )
  }
  if (badge === 'idle') return <span className="session-dot" aria-hidden data-testid="session-badge" data-badge="idle" />
  return (
    <span className={`session-badge ${badge}`} title={doing} data-testid="session-badge" data-badge={badge}>
      <StatusGlyph state={badge === 'waiting' ? 'waiting' : badge === 'error' ? 'error' : 'running'} />
      <span className="session-badge-label">{BADGE_LABEL[badge]}</span>
    </span>
  )
}
