import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Modal } from '../../components/Modal'
import { useDialogs, type DialogRequest } from './dialogs'

function PromptBody({ request }: { request: Extract<DialogRequest, { kind: 'prompt' }> }) {
  const [value, setValue] = useState(request.initial)
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    const [start, end] = request.select ?? [0, request.initial.length]
    input.current?.setSelectionRange(start, end)
  }, [request])
  const problem = request.validate?.(value) ?? null
  const submit = (e: FormEvent): void => {
    e.preventDefault()
    if (!problem && value.trim()) request.resolve(value.trim())
  }
  return (
    <form onSubmit={submit}>
      {request.message && <p className="muted">{request.message}</p>}
      <input
        ref={input}
        className="modal-input"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        spellCheck={false}
        autoComplete="off"
        data-testid="prompt-input"
      />
      <p className="modal-problem error" aria-live="polite">
        {value.trim() ? problem : ''}
      </p>
      <div className="modal-actions">
        <button type="button" onClick={() => request.resolve(null)}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!!problem || !value.trim()} data-testid="prompt-ok">
          {request.confirmLabel}
        </button>
      </div>
    </form>
  )
}

/** Renders the open confirm/prompt dialog, if any. */
export function DialogHost() {
  const request = useDialogs((s) => s.current)
  if (!request) return null
  const cancel = (): void => (request.kind === 'confirm' ? request.resolve(false) : request.resolve(null))
  return (
    <Modal title={request.title} onCancel={cancel} testId={`dialog-${request.kind}`}>
      {request.kind === 'confirm' ? (
        <>
          <p>{request.message}</p>
          <div className="modal-actions">
            <button type="button" onClick={() => request.resolve(false)}>
              Cancel
            </button>
            <button
              type="button"
              className={request.danger ? 'danger' : 'primary'}
              onClick={() => request.resolve(true)}
              data-testid="confirm-ok"
            >
              {request.confirmLabel}
            </button>
          </div>
        </>
      ) : (
        <PromptBody request={request} />
      )}
    </Modal>
  )
}
