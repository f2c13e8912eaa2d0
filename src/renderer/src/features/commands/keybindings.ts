import { isMac, matches } from '../../lib/keys'
import { useDialogs } from '../dialogs/dialogs'
import { allCommands, runCommand } from './registry'

/**
 * Shortcuts a terminal needs for itself (Ctrl+B, Ctrl+W, Ctrl+S…) stay with the
 * shell when a terminal has focus; only chords no shell uses reach the app there.
 */
function allowedInTerminal(keys: string): boolean {
  if (isMac) return keys.includes('Mod') || keys.includes('Meta')
  return (keys.includes('Shift') && (keys.includes('Ctrl') || keys.includes('Mod'))) || /^F\d+$/.test(keys) || keys.includes('`')
}

/**
 * App-wide shortcuts, caught in the capture phase so they win over Monaco's and
 * xterm's own bindings (Monaco would otherwise open its own palette on Ctrl+Shift+P).
 */
export function installKeybindings(): () => void {
  const onKeyDown = (event: KeyboardEvent): void => {
    if (useDialogs.getState().current) return
    const target = event.target instanceof Element ? event.target : null
    const inTerminal = target?.closest('.xterm') !== null && target?.closest('.xterm') !== undefined
    for (const command of allCommands()) {
      if (!command.keys || !matches(command.keys, event)) continue
      if (inTerminal && !allowedInTerminal(command.keys)) return
      if (command.when && !command.when()) continue
      event.preventDefault()
      event.stopPropagation()
      runCommand(command.id)
      return
    }
  }
  window.addEventListener('keydown', onKeyDown, true)
  return () => window.removeEventListener('keydown', onKeyDown, true)
}
