import { Icon } from '../../../components/Icon'
import { chipLabel, removeContextChip, type ContextChip } from '../../../stores/chat-context'

/** The editor selections and mentioned files going with the message, each removable; a failed read says why. */
export function ContextChips({ projectId, chips }: { projectId: string; chips: readonly ContextChip[] }) {
  if (!chips.length) return null
  return (
    <ul className="composer-attachments" aria-label="Context for the agent">
      {chips.map((c) => {
        const label = chipLabel(c)
        return (
          <li key={c.key} className={`composer-attachment context-chip ${c.state}`} data-testid="context-chip" data-kind={c.kind} data-state={c.state} title={c.error ?? c.text.slice(0, 2000)}>
            <Icon name={c.kind === 'selection' ? 'selection' : 'file-code'} />
            <span className="suggest-label">{label}</span>
            {c.state === 'reading' && <span className="muted"> reading…</span>}
            {c.state === 'failed' && <span role="alert"> could not be read: {c.error}</span>}
            <button type="button" className="icon" aria-label={`Remove ${label}`} onClick={() => removeContextChip(projectId, c.key)}>
              ×
            </button>
          </li>
        )
      })}
    </ul>
  )
}
