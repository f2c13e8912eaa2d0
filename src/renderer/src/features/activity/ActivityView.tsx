import { useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { Modal } from '../../components/Modal'
import { StatusGlyph } from '../../components/StatusGlyph'
import { activity, allRows, BADGE_LABEL, useActivity, type ActivityRow } from '../../stores/activity'
import { existingChat, openSession } from '../../stores/chat'
import { useChatScope, tabOf, worktreeOfProject } from '../../stores/chat-scope'
import { useWorkspace } from '../../stores/workspace'
import { desktopNotifications, enableDesktopNotifications } from './desktop-notify'
import { background } from '../../lib/background'

/** "project" or "project · worktree name": where a session runs. */
export function useWhere(projectId: string): string {
  const scope = useChatScope()
  const projects = useWorkspace(useShallow((s) => s.projects))
  const main = tabOf(projectId, scope)
  const name = projects.find((p) => p.id === main)?.name ?? 'project'
  const worktree = worktreeOfProject(projectId, scope)
  return worktree ? `${name} · ${worktree.name}` : name
}

function Row({ row, onOpen }: { row: ActivityRow; onOpen(): void }) {
  const where = useWhere(row.projectId)
  const stop = (): void => {
    const chat = existingChat(row.projectId)
    if (chat) background('chat.abort', chat.abort(row.sessionId))
  }
  return (
    <li className="activity-item">
      <button type="button" className="activity-row" onClick={onOpen} data-testid="activity-row" data-session-id={row.sessionId} data-badge={row.badge}>
        <StatusGlyph state={row.badge === 'waiting' ? 'waiting' : row.badge === 'error' ? 'error' : 'running'} />
        <span className="activity-where">{where}</span>
        <span className="activity-title">{row.title}</span>
        <span className={`activity-doing ${row.badge}`} title={BADGE_LABEL[row.badge]}>
          {row.doing}
        </span>
      </button>
      <button type="button" className="small ghost activity-stop" onClick={stop} aria-label={`Stop ${row.title}`} title="Stop this session's turn">
        Stop
      </button>
    </li>
  )
}

/** Every running session of every open project, with what it does now; a click opens it. */
export function ActivityView() {
  const open = useActivity((s) => s.open)
  const rows = useActivity(useShallow(allRows))
  const [permission, setPermission] = useState(desktopNotifications)
  if (!open) return null
  const close = (): void => activity.setOpen(false)
  return (
    <Modal title="Activity" onCancel={close} testId="activity-view" className="activity-modal">
      {rows.length === 0 ? (
        <p className="muted">No session is running.</p>
      ) : (
        <ul className="activity-list" aria-label="Running sessions">
          {rows.map((row) => (
            <Row
              key={row.sessionId}
              row={row}
              onOpen={() => {
                close()
                openSession(row.projectId, row.sessionId)
              }}
            />
          ))}
        </ul>
      )}
      <footer className="activity-footer">
        {permission === 'default' && (
          <button type="button" className="ghost small" onClick={() => background('enableDesktopNotifications', enableDesktopNotifications().then(setPermission))}>
            Notify me on the desktop when a session asks
          </button>
        )}
        {permission === 'denied' && <span className="muted small">Desktop notifications are blocked for this page; asks show here only.</span>}
        <button type="button" onClick={close}>
          Close
        </button>
      </footer>
    </Modal>
  )
}

/** The status-bar entry: how many sessions run across the window; opens the Activity view. */
export function ActivityButton() {
  const count = useActivity((s) => allRows(s).length)
  const waiting = useActivity((s) => allRows(s).some((r) => r.badge === 'waiting'))
  return (
    <button
      type="button"
      className={`ghost small statusbar-button activity-button${waiting ? ' waiting' : ''}`}
      title="Every running session of every open project"
      onClick={() => activity.setOpen(true)}
      data-testid="activity-button"
    >
      {count > 0 ? `Activity · ${count} running` : 'Activity'}
    </button>
  )
}
