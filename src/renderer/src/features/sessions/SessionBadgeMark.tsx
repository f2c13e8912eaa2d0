import { StatusGlyph } from '../../components/StatusGlyph'
import { useChat } from '../../stores/chat'
import { BADGE_LABEL, describeActivity, sessionBadge } from '../../stores/session-activity'

/**
 * A session's live state in the list: a spinner and "streaming" (or "retrying"), "waiting for
 * permission", "error", or a plain dot when idle. Its title says what the session does now.
 */
export function SessionBadgeMark({ sessionId }: { sessionId: string }) {
  const badge = useChat((s) => sessionBadge(s, sessionId))
  const doing = useChat((s) => (badge === 'idle' || badge === 'error' ? (s.turnErrors[sessionId] ?? '') : describeActivity(s, sessionId)))
  if (badge === 'idle') return <span className="session-dot" aria-hidden data-testid="session-badge" data-badge="idle" />
  return (
    <span className={`session-badge ${badge}`} title={doing} data-testid="session-badge" data-badge={badge}>
      <StatusGlyph state={badge === 'waiting' ? 'waiting' : badge === 'error' ? 'error' : 'running'} />
      <span className="session-badge-label">{BADGE_LABEL[badge]}</span>
    </span>
  )
}
