import { useState, type FormEvent } from 'react'
import { mcpLabel, missingArguments } from './mcp-items'
import type { Attachment, PromptAsk } from './use-mcp-items'
import { Icon } from '../../../components/Icon'

/** The resources attached to the message being written, each removable; a failed read says why. */
export function Attachments({ items, onRemove }: { items: Attachment[]; onRemove(key: number): void }) {
  if (!items.length) return null
  return (
    <ul className="composer-attachments" aria-label="Attached MCP resources">
      {items.map((a) => (
        <li key={a.key} className={`composer-attachment ${a.state}`} data-testid="composer-attachment" data-state={a.state} title={a.error}>
          <span className="suggest-label">@{a.label}</span>
          {a.state === 'reading' && <span className="muted"> reading…</span>}
          {a.state === 'failed' && <span role="alert"> could not be read: {a.error}</span>}
          <button type="button" className="icon" aria-label={`Remove ${a.label}`} onClick={() => onRemove(a.key)}>
            <Icon name="close" />
          </button>
        </li>
      ))}
    </ul>
  )
}

/** Asks for an MCP prompt's arguments (required ones marked), then renders it into the composer. */
export function PromptForm({ ask, onRender, onCancel }: { ask: PromptAsk; onRender(args: Record<string, string>): void; onCancel(): void }) {
  const { prompt } = ask
  const [values, setValues] = useState<Record<string, string>>({})
  const [missing, setMissing] = useState<string[]>([])
  const submit = (e: FormEvent): void => {
    e.preventDefault()
    const empty = missingArguments(prompt, values)
    setMissing(empty)
    if (empty.length) return
    onRender(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')))
  }
  return (
    <form className="composer-prompt" aria-label={`Arguments of /${mcpLabel(prompt)}`} onSubmit={submit} onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <div className="composer-prompt-title">
        <span className="suggest-label">/{mcpLabel(prompt)}</span>
        {prompt.description && <span className="muted"> {prompt.description}</span>}
      </div>
      {prompt.arguments.map((arg, i) => (
        <label key={arg.name} className="composer-prompt-arg">
          <span>
            {arg.name}
            {arg.required ? ' *' : ''}
          </span>
          <input
            autoFocus={i === 0}
            value={values[arg.name] ?? ''}
            placeholder={arg.description}
            aria-invalid={missing.includes(arg.name)}
            onChange={(e) => {
              setValues((v) => ({ ...v, [arg.name]: e.target.value }))
              setMissing((m) => m.filter((name) => name !== arg.name))
            }}
          />
        </label>
      ))}
      {missing.length > 0 && <div role="alert">Required: {missing.join(', ')}</div>}
      {ask.error && <div role="alert">Could not render the prompt: {ask.error}</div>}
      <div className="composer-prompt-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={ask.rendering}>
          {ask.rendering ? 'Rendering…' : 'Insert'}
        </button>
      </div>
    </form>
  )
}
