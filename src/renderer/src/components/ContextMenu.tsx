import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'

export type MenuItem =
  | { kind?: 'item'; id: string; label: string; shortcut?: string; disabled?: boolean; danger?: boolean; onSelect(): void }
  | { kind: 'separator'; id: string }

interface ContextMenuProps {
  x: number
  y: number
  items: MenuItem[]
  onClose(): void
  label?: string
}

type ActionItem = Extract<MenuItem, { onSelect(): void }>

const isAction = (item: MenuItem): item is ActionItem => item.kind !== 'separator'

/** A keyboard-navigable menu at a point, kept inside the window. */
export function ContextMenu({ x, y, items, onClose, label = 'Context menu' }: ContextMenuProps) {
  const menu = useRef<HTMLDivElement>(null)
  const [position, setPosition] = useState({ left: x, top: y })
  const actions = items.filter(isAction).filter((i) => !i.disabled)
  const [active, setActive] = useState(0)

  useLayoutEffect(() => {
    const el = menu.current
    if (!el) return
    const { width, height } = el.getBoundingClientRect()
    setPosition({
      left: Math.max(4, Math.min(x, window.innerWidth - width - 4)),
      top: Math.max(4, Math.min(y, window.innerHeight - height - 4)),
    })
    el.focus()
  }, [x, y])

  useEffect(() => {
    const close = (e: Event): void => {
      if (menu.current && e.target instanceof Node && menu.current.contains(e.target)) return
      onClose()
    }
    window.addEventListener('mousedown', close, true)
    window.addEventListener('blur', onClose)
    window.addEventListener('resize', onClose)
    return () => {
      window.removeEventListener('mousedown', close, true)
      window.removeEventListener('blur', onClose)
      window.removeEventListener('resize', onClose)
    }
  }, [onClose])

  const choose = (item: ActionItem): void => {
    onClose()
    item.onSelect()
  }

  // In a portal: clicks and keys in the menu must not bubble into the widget that opened it.
  return createPortal(
    <div
      ref={menu}
      className="context-menu"
      role="menu"
      aria-label={label}
      tabIndex={-1}
      style={{ left: position.left, top: position.top }}
      data-testid="context-menu"
      onContextMenu={(e) => e.preventDefault()}
      onKeyDown={(e) => {
        e.stopPropagation()
        if (e.key === 'Escape') onClose()
        else if (e.key === 'ArrowDown') setActive((a) => (a + 1) % Math.max(actions.length, 1))
        else if (e.key === 'ArrowUp') setActive((a) => (a - 1 + actions.length) % Math.max(actions.length, 1))
        else if (e.key === 'Enter' || e.key === ' ') {
          const item = actions[active]
          if (item) choose(item)
        } else return
        e.preventDefault()
      }}
    >
      {items.map((item) =>
        isAction(item) ? (
          <div
            key={item.id}
            role="menuitem"
            aria-disabled={item.disabled || undefined}
            className={`menu-item${item.danger ? ' danger' : ''}${actions[active] === item ? ' active' : ''}`}
            onMouseEnter={() => {
              const index = actions.indexOf(item)
              if (index >= 0) setActive(index)
            }}
            onClick={() => !item.disabled && choose(item)}
          >
            <span>{item.label}</span>
            {item.shortcut && <span className="menu-shortcut">{item.shortcut}</span>}
          </div>
        ) : (
          <div key={item.id} role="separator" className="menu-separator" />
        ),
      )}
    </div>,
    document.body,
  )
}
