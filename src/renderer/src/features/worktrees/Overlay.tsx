import { useEffect, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import type { WorktreeFileChange } from '@shared/schema/worktree'
import { showWorktreeView } from './state'
import { Icon } from '../../components/Icon'

const STATUS_LETTER: Record<WorktreeFileChange['status'], string> = { added: 'A', modified: 'M', deleted: 'D' }

/** A full-window panel like the turn review's (diffs need the width); Escape or the backdrop closes it. */
export function Overlay({ title, testId, actions, children, onClose = () => showWorktreeView(null) }: { title: string; testId: string; actions?: ReactNode; children: ReactNode; onClose?(): void }) {
  useEffect(() => {
    const onEscape = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      e.preventDefault()
      onClose()
    }
    window.addEventListener('keydown', onEscape)
    return () => window.removeEventListener('keydown', onEscape)
  }, [onClose])
  return createPortal(
    <div className="changes-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="changes" role="dialog" aria-modal="true" aria-label={title} tabIndex={-1} data-testid={testId}>
        <header className="changes-head">
          <h2>{title}</h2>
          {actions}
          <button type="button" className="icon changes-close" aria-label="Close" onClick={onClose} autoFocus>
            <Icon name="close" />
          </button>
        </header>
        <div className="changes-body">{children}</div>
      </div>
    </div>,
    document.body,
  )
}

/** A changed file in a list: status letter, path (`old → new` for a rename), +/− counts. */
export function FileRow({ change, selected, onSelect, note }: { change: WorktreeFileChange; selected: boolean; onSelect(): void; note?: string }) {
  const renamed = change.from !== undefined
  const rename = renamed ? `renamed ${change.from} → ${change.path}` : ''
  return (
    <li
      role="option"
      aria-selected={selected}
      className={`changes-file${selected ? ' active' : ''}`}
      onClick={onSelect}
      data-testid="changes-file"
      data-path={change.path}
      {...(renamed ? { 'data-from': change.from } : {})}
    >
      <span className={`git-letter status-${renamed ? 'renamed' : change.status}`}>{renamed ? 'R' : STATUS_LETTER[change.status]}</span>
      {renamed ? (
        // The new path on its line, the rename under it: both stay readable in a narrow list.
        <span className="changes-name" title={rename}>
          <span className="changes-path">{change.path}</span>
          <span className="changes-from muted small">
            {rename}
            {change.similarity === 100 ? '' : `, ${change.similarity ?? 0}% similar`}
          </span>
        </span>
      ) : (
        <span className="changes-path" title={change.path}>
          {change.path}
        </span>
      )}
      {note && <span className="muted small">{note}</span>}
      {!change.binary && !(renamed && change.similarity === 100) && (
        <span className="changes-counts mono">
          <span className="add">+{change.additions}</span> <span className="del">−{change.deletions}</span>
        </span>
      )}
    </li>
  )
}
