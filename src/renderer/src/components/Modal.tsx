import { useEffect, useRef, type ReactNode } from 'react'

interface ModalProps {
  title: string
  children: ReactNode
  onCancel(): void
  testId?: string
  /** Extra class for the panel (e.g. a wider dialog). */
  className?: string
}

/** A centred dialog over a dimmed window; Escape or a click outside cancels. */
export function Modal({ title, children, onCancel, testId, className }: ModalProps) {
  const panel = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    const first = panel.current?.querySelector<HTMLElement>('input, button.primary, button')
    first?.focus()
    return () => previous?.focus?.()
  }, [])
  return (
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onCancel()
      }}
    >
      <div
        ref={panel}
        className={className ? `modal ${className}` : 'modal'}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        data-testid={testId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation()
            onCancel()
          }
        }}
      >
        <h2 className="modal-title">{title}</h2>
        {children}
      </div>
    </div>
  )
}
