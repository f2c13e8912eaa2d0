import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react'

/** Space kept between the panel and the window's edge. */
const EDGE_PX = 8

export interface StatusPopoverProps {
  /** The button's accessible name (e.g. "Notices (2)"). */
  label: string
  title?: string
  warn?: boolean
  testId?: string
  /** What the button shows. */
  face: ReactNode
  /** The panel's accessible name and heading. */
  heading: string
  /** Buttons beside the heading. */
  actions?: ReactNode
  children: ReactNode
}

/** A status bar button that opens a panel above it; a click outside or Escape closes it. */
export function StatusPopover({ label, title, warn, testId, face, heading, actions, children }: StatusPopoverProps) {
  const [open, setOpen] = useState(false)
  const anchor = useRef<HTMLSpanElement>(null)
  const panel = useRef<HTMLDivElement>(null)
  /** Horizontal shift that keeps the panel inside the window (a button near the right edge opens it leftwards). */
  const [shift, setShift] = useState(0)
  useLayoutEffect(() => {
    if (!open || !panel.current || !anchor.current) return
    const start = anchor.current.getBoundingClientRect().left
    const width = panel.current.getBoundingClientRect().width
    const overflow = start + width - (window.innerWidth - EDGE_PX)
    setShift(overflow > 0 ? -Math.min(overflow, Math.max(0, start - EDGE_PX)) : 0)
  }, [open])
  useEffect(() => {
    if (!open) return
    const onDown = (e: MouseEvent): void => {
      if (!anchor.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [open])
  return (
    <span ref={anchor} className="statusbar-popover-anchor">
      <button
        type="button"
        className={`ghost small statusbar-button${warn ? ' has-warnings' : ''}`}
        aria-expanded={open}
        aria-haspopup="dialog"
        aria-label={label}
        title={title}
        data-testid={testId}
        onClick={() => setOpen(!open)}
      >
        {face}
      </button>
      {open && (
        <div
          ref={panel}
          className="statusbar-popover"
          style={{ left: shift }}
          role="dialog"
          aria-label={heading}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false)
          }}
        >
          <div className="statusbar-popover-head">
            <strong>{heading}</strong>
            {actions}
          </div>
          {children}
        </div>
      )}
    </span>
  )
}
