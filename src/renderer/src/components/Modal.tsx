import { useEffect, useRef, type ReactNode } from 'react'

interface ModalProps {
  title: string
  children: ReactNode
  onCancel(): void
  testId?: string
  /** Extra class for the panel (e.g. a wider dialog). */
  className?: string
}

const FIRST_FOCUS = 'input, button.primary, button'

/** Open dialogs, the last one on top: only the top one holds the focus. */
const openPanels: HTMLElement[] = []

/**
 * Popups a dialog opens render outside its panel (menus, lists, a dialog over it): focus there is the
 * dialog's own. Anything else behind the backdrop does not take the focus while the dialog is open.
 */
const POPUP = '[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]'

/**
 * Keeps the focus in `panel` while it is the top dialog: a late focus() elsewhere (a deferred "focus the
 * composer", a click on content behind the backdrop) comes back to where it was in the dialog, so keys
 * such as Escape go to the dialog and not to what lies under it.
 */
function holdFocus(panel: HTMLElement): () => void {
  let inside: HTMLElement | null = null
  const onFocusIn = (event: FocusEvent): void => {
    const target = event.target
    if (!(target instanceof HTMLElement)) return
    if (panel.contains(target)) {
      inside = target
      return
    }
    if (openPanels.at(-1) !== panel) return
    // A popup is the dialog's own; a dialog under this one is behind the backdrop like the rest.
    const popup = target.closest(POPUP)
    if (popup && !openPanels.some((p) => p.contains(popup))) return
    const back = inside?.isConnected ? inside : (panel.querySelector<HTMLElement>(FIRST_FOCUS) ?? panel)
    back.focus()
  }
  document.addEventListener('focusin', onFocusIn)
  return () => document.removeEventListener('focusin', onFocusIn)
}

/**
 * Makes `el` the top dialog: it holds the focus until the returned function is called, which gives the focus
 * back to where it was before. For dialogs that are not a `Modal` (the Settings page); the caller moves the
 * focus in.
 */
export function openDialog(el: HTMLElement): () => void {
  const previous = document.activeElement as HTMLElement | null
  openPanels.push(el)
  const release = holdFocus(el)
  return () => {
    release()
    openPanels.splice(openPanels.indexOf(el), 1)
    previous?.focus?.()
  }
}

/** A centred dialog over a dimmed window; Escape or a click outside cancels. It holds the focus while open. */
export function Modal({ title, children, onCancel, testId, className }: ModalProps) {
  const panel = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = panel.current
    if (!el) return
    const release = openDialog(el)
    el.querySelector<HTMLElement>(FIRST_FOCUS)?.focus()
    return release
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
        tabIndex={-1}
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
