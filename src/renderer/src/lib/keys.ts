/**
 * Keyboard shortcuts written as "Mod+Shift+P": Mod is Cmd on macOS and Ctrl
 * elsewhere. One parser for matching events and for showing the shortcut.
 */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

interface Chord {
  ctrl: boolean
  meta: boolean
  alt: boolean
  shift: boolean
  key: string
}

function parse(shortcut: string): Chord {
  const parts = shortcut.split('+')
  const key = (parts.pop() ?? '').toLowerCase()
  const has = (m: string) => parts.includes(m)
  return {
    ctrl: has('Ctrl') || (has('Mod') && !isMac),
    meta: has('Meta') || (has('Mod') && isMac),
    alt: has('Alt'),
    shift: has('Shift'),
    key,
  }
}

/** The key of an event as shortcuts spell it; layout-independent for letters, digits and the backquote. */
function eventKey(event: KeyboardEvent): string {
  const code = event.code
  if (/^Key[A-Z]$/.test(code)) return code.slice(3).toLowerCase()
  if (/^Digit[0-9]$/.test(code)) return code.slice(5)
  if (code === 'Backquote') return '`'
  return event.key.toLowerCase()
}

export function matches(shortcut: string, event: KeyboardEvent): boolean {
  const chord = parse(shortcut)
  return (
    chord.ctrl === event.ctrlKey &&
    chord.meta === event.metaKey &&
    chord.alt === event.altKey &&
    chord.shift === event.shiftKey &&
    chord.key === eventKey(event)
  )
}

/** "Mod+Shift+P" → "Ctrl+Shift+P" or "⇧⌘P". */
export function formatShortcut(shortcut: string): string {
  const chord = parse(shortcut)
  const key = chord.key.length === 1 ? chord.key.toUpperCase() : chord.key.charAt(0).toUpperCase() + chord.key.slice(1)
  if (isMac) return `${chord.ctrl ? '⌃' : ''}${chord.alt ? '⌥' : ''}${chord.shift ? '⇧' : ''}${chord.meta ? '⌘' : ''}${key}`
  return [chord.ctrl && 'Ctrl', chord.alt && 'Alt', chord.shift && 'Shift', chord.meta && 'Meta', key].filter(Boolean).join('+')
}
