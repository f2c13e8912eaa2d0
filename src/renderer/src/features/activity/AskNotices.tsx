import { useEffect } from 'react'
import { activity, useActivity, type AskNotice } from '../../stores/activity'
import { openSession } from '../../stores/chat'
import { useWhere } from './ActivityView'
import { showDesktopNotification } from './desktop-notify'
import { Icon } from '../../components/Icon'

function open(notice: AskNotice): void {
  activity.resolved(notice.id)
  openSession(notice.projectId, notice.sessionId)
}

function Notice({ notice }: { notice: AskNotice }) {
  const where = useWhere(notice.projectId)
  useEffect(() => showDesktopNotification(`${where}: ${notice.title}`, notice.body, notice.id, () => open(notice)) ?? undefined, [notice, where])
  return (
    <div className="ask-notice" role="status" data-testid="ask-notice" data-session-id={notice.sessionId}>
      <div className="ask-notice-text">
        <strong>
          {where} · {notice.title}
        </strong>
        <span>{notice.body}</span>
      </div>
      <button type="button" className="primary small" onClick={() => open(notice)}>
        Open
      </button>
      <button type="button" className="icon" aria-label="Dismiss" onClick={() => activity.resolved(notice.id)}>
        <Icon name="close" />
      </button>
    </div>
  )
}

/**
 * A session that is not on screen asked for permission (or asked a question): an in-app notice per ask,
 * and a system notification when the window is not in front. Answering the ask anywhere removes it.
 */
export function AskNotices() {
  const notices = useActivity((s) => s.notices)
  if (notices.length === 0) return null
  return (
    <div className="ask-notices" aria-live="polite">
      {notices.slice(-4).map((n) => (
        <Notice key={n.id} notice={n} />
      ))}
    </div>
  )
}
