import { useStore } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { ProjectNotice } from '@shared/ipc/project'
import { BellIcon } from '../../components/BellIcon'
import { StatusPopover } from '../../components/StatusPopover'
import { background } from '../../lib/background'
import { relativeInside } from '../../lib/paths'
import { dismissNotices, dismissUiFailures, noticesFor, uiFailures, type UiFailure } from '../../stores/notices'
import { Icon, type IconName } from '../../components/Icon'

const LEVEL_ICON: Record<ProjectNotice['level'], IconName> = { error: 'error', warning: 'warning', info: 'info' }

/** The reason without the file it names first (`/p/x.md: reason`), since the row shows the file itself. */
function reasonOf(notice: ProjectNotice): string {
  const prefix = notice.file ? `${notice.file}: ` : ''
  return prefix && notice.message.startsWith(prefix) ? notice.message.slice(prefix.length) : notice.message
}

function NoticeRow({ notice, root, onDismiss }: { notice: ProjectNotice; root: string; onDismiss(): void }) {
  const file = notice.file ? (relativeInside(root, notice.file) ?? notice.file) : undefined
  return (
    <li className={`notice notice-${notice.level}`} data-testid="notice" data-source={notice.source}>
      <span className="notice-glyph" aria-label={notice.level}>
        <Icon name={LEVEL_ICON[notice.level]} />
      </span>
      <div className="notice-body">
        {(file || notice.source === 'mcp') && (
          <div className="notice-origin mono" title={notice.file}>
            {notice.source === 'mcp' ? 'MCP' : file}
          </div>
        )}
        <div className="notice-message">{reasonOf(notice)}</div>
      </div>
      {notice.count > 1 && (
        <span className="notice-count muted" title={`Reported ${notice.count} times`}>
          ×{notice.count}
        </span>
      )}
      <button type="button" className="icon" aria-label="Dismiss notice" title="Dismiss" onClick={onDismiss}>
        <Icon name="close" />
      </button>
    </li>
  )
}

function FailureRow({ failure }: { failure: UiFailure }) {
  return (
    <li className="notice notice-error" data-testid="notice" data-source="app">
      <span className="notice-glyph" aria-label="error">
        <Icon name="error" />
      </span>
      <div className="notice-body">
        <div className="notice-origin">{failure.what}</div>
        <div className="notice-message">{failure.message}</div>
      </div>
      <button type="button" className="icon" aria-label="Dismiss notice" title="Dismiss" onClick={() => dismissUiFailures([failure.id])}>
        <Icon name="close" />
      </button>
    </li>
  )
}

/**
 * The status bar's notices: a bell with the count of the active project's notices (config warnings,
 * broken skill/agent/tool files with file and reason, MCP warnings) and of this page's failed background
 * work; a click opens the list, where each can be dismissed, or all at once.
 */
export function NoticesButton({ bridge, projectId, root }: { bridge: HotaruBridge; projectId: string; root: string }) {
  const notices = useStore(noticesFor(bridge, projectId), (s) => s.notices)
  const failures = useStore(uiFailures, (s) => s.failures)
  const count = notices.length + failures.length
  const dismiss = (ids?: string[]): void => background('dismiss notices', dismissNotices(bridge, projectId, ids))
  return (
    <StatusPopover
      label={`Notices (${count})`}
      title={count === 0 ? 'No notices' : `${count} notice${count === 1 ? '' : 's'}`}
      warn={notices.some((n) => n.level !== 'info') || failures.length > 0}
      testId="notices-button"
      face={
        <>
          <BellIcon /> {count}
        </>
      }
      heading="Notices"
      actions={
        <button
          type="button"
          className="ghost small"
          disabled={count === 0}
          onClick={() => {
            dismiss()
            dismissUiFailures()
          }}
        >
          Dismiss all
        </button>
      }
    >
      {count === 0 ? (
        <p className="muted statusbar-popover-empty">No notices.</p>
      ) : (
        <ul className="statusbar-popover-list">
          {notices.map((n) => (
            <NoticeRow key={n.id} notice={n} root={root} onDismiss={() => dismiss([n.id])} />
          ))}
          {failures.map((f) => (
            <FailureRow key={f.id} failure={f} />
          ))}
        </ul>
      )}
    </StatusPopover>
  )
}
