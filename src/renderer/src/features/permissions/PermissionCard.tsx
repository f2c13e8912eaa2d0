import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { PendingPermission } from '@shared/ipc/permission'
import type { PermissionReply } from '../../stores/chat'
import { askDiff, diffLineKind, headingOf, patternsLabel } from './describe'
import { proposedBlocks, proposedFile } from '../review'
import { documentsFor } from '../editor'
import { useShownFolderStore } from '../../stores/shown-folder'

export type ApprovalScope = 'session' | 'project' | 'persisted'

const SCOPES: { value: ApprovalScope; label: string }[] = [
  { value: 'session', label: 'this session' },
  { value: 'project', label: 'this project (until restart)' },
  { value: 'persisted', label: 'this project, remembered' },
]

/** Keys do nothing for this long after an ask appears: an Enter meant for the composer must not approve it. */
const ARM_MS = 350

interface PermissionCardProps {
  ask: PendingPermission
  position: number
  total: number
  /** Set when the ask comes from another session (a subagent run). */
  origin?: string
  onReply(reply: PermissionReply): void
}

function UnifiedDiff({ diff }: { diff: string }) {
  return (
    <pre className="ask-diff" data-testid="permission-diff">
      {diff
        .split('\n')
        .filter((line) => !line.startsWith('==='))
        .map((line, i) => (
        <span key={i} className={`dl dl-${diffLineKind(line)}`}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  )
}

/**
 * One permission ask: the exact commands or paths, what "always" would
 * remember and where, and optional feedback for the model on reject.
 * Enter allows once, A allows always, Esc rejects.
 */
export function PermissionCard({ ask, position, total, origin, onReply }: PermissionCardProps) {
  const [scope, setScope] = useState<ApprovalScope>('session')
  const [feedback, setFeedback] = useState('')
  const [armed, setArmed] = useState(false)
  const card = useRef<HTMLDivElement>(null)
  const canAlways = ask.always.length > 0
  const diff = askDiff(ask)
  const proposed = proposedFile(ask)
  const folder = useShownFolderStore()
  // The editor shows the proposed change in place, with Accept / Reject answering this ask.
  const showInEditor = (): void => {
    if (!proposed) return
    const first = proposedBlocks(proposed.diff)[0]
    const line = Math.max(1, first?.removed[0] ?? first?.afterLine ?? 1)
    documentsFor(folder).openAt(proposed.path, { line, column: 1, endColumn: 1 })
  }

  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), ARM_MS)
    // Take focus only from nowhere or an empty chat input: never from text being typed (a letter would answer).
    const active = document.activeElement
    const typing =
      active instanceof HTMLElement &&
      (active.isContentEditable || active instanceof HTMLInputElement || active instanceof HTMLSelectElement || (active instanceof HTMLTextAreaElement && active.value !== '') || active.closest('.xterm, .monaco-editor') !== null)
    if (!typing && (!active || active === document.body || active.closest('.right-panel'))) card.current?.focus()
    return () => clearTimeout(timer)
  }, [ask.id])

  const once = (): void => onReply({ reply: 'once' })
  const always = (): void => {
    if (canAlways) onReply({ reply: 'always', scope })
  }
  const reject = (): void => onReply({ reply: 'reject', ...(feedback.trim() ? { feedback: feedback.trim() } : {}) })

  const onKeyDown = (e: KeyboardEvent): void => {
    const inField = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement
    const inButton = e.target instanceof HTMLButtonElement
    if (!armed) return
    if (e.key === 'Escape') reject()
    else if (e.key === 'Enter' && e.target instanceof HTMLInputElement) reject()
    else if (e.key === 'Enter' && !inField && !inButton) once()
    else if ((e.key === 'a' || e.key === 'A') && !inField && !e.ctrlKey && !e.metaKey && !e.altKey) always()
    else return
    e.preventDefault()
    e.stopPropagation()
  }

  return (
    <div
      ref={card}
      className="permission-card"
      role="alertdialog"
      aria-modal="false"
      aria-labelledby={`ask-${ask.id}-title`}
      aria-describedby={`ask-${ask.id}-what`}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      data-testid="permission-dialog"
      data-permission={ask.permission}
    >
      <div className="ask-head">
        <span className="glyph glyph-waiting" aria-hidden />
        <h3 id={`ask-${ask.id}-title`}>{headingOf(ask)}</h3>
        {total > 1 && (
          <span className="muted ask-count" data-testid="permission-count">
            {position} of {total}
          </span>
        )}
      </div>
      <div className="ask-title muted">
        {ask.title}
        {origin && <span className="ask-origin"> · in {origin}</span>}
      </div>
      <div id={`ask-${ask.id}-what`} className="ask-what">
        <div className="ask-label">{patternsLabel(ask)}</div>
        <ul className="ask-patterns" data-testid="permission-patterns">
          {ask.patterns.map((p) => (
            <li key={p}>
              <code>{p}</code>
            </li>
          ))}
        </ul>
      </div>
      {diff && <UnifiedDiff diff={diff} />}
      {proposed && (
        <button type="button" className="ghost small ask-show" onClick={showInEditor} data-testid="permission-show-in-editor">
          Show in the editor
        </button>
      )}
      <div className="ask-always">
        {canAlways ? (
          <>
            <span className="ask-always-text">Always allows</span>
            <span className="ask-always-patterns" data-testid="permission-always">
              {ask.always.map((p) => (p === '*' ? <span key={p}>everything of this kind</span> : <code key={p}>{p}</code>))}
            </span>
            <label className="ask-scope">
              for
              <select value={scope} onChange={(e) => setScope(e.target.value as ApprovalScope)} data-testid="permission-scope">
                {SCOPES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            </label>
          </>
        ) : (
          <span className="muted">This cannot be remembered: each time is asked again.</span>
        )}
      </div>
      <input
        className="ask-feedback"
        placeholder="Reason for rejecting (optional, sent to the agent)"
        value={feedback}
        onChange={(e) => setFeedback(e.target.value)}
        data-testid="permission-feedback"
        aria-label="Feedback for the agent"
      />
      <div className="ask-actions">
        <button type="button" className="primary" onClick={once} disabled={!armed} data-testid="permission-once">
          Allow once <kbd>Enter</kbd>
        </button>
        <button type="button" onClick={always} disabled={!armed || !canAlways} data-testid="permission-always-button">
          Always <kbd>A</kbd>
        </button>
        <button type="button" className="reject" onClick={reject} disabled={!armed} data-testid="permission-reject">
          Reject <kbd>Esc</kbd>
        </button>
      </div>
    </div>
  )
}
