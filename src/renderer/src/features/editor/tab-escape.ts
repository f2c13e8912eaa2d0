import type * as Monaco from 'monaco-editor'

/**
 * Tab inserts a tab in the editor, so keyboard users need a way out. Ctrl+M (Monaco's own
 * toggleTabFocusMode) switches Tab to moving focus for good; this adds the one-shot way:
 * an Esc that Monaco did not use (no suggest, find or other widget took it) makes the next
 * Tab or Shift+Tab leave the editor. Any other key, or focus leaving, ends it.
 *
 * `wrapper` is an ancestor of the editor's own node: Monaco stops the propagation of the
 * keys its keybindings handle, so an Esc that reaches the wrapper closed nothing.
 */
export function releaseTabOnEscape(editor: Monaco.editor.IStandaloneCodeEditor, wrapper: HTMLElement): () => void {
  let armed = false
  const disarm = (): void => {
    if (!armed) return
    armed = false
    editor.updateOptions({ tabFocusMode: false })
  }
  const onEscape = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return
    if (!editor.hasTextFocus()) return
    armed = true
    editor.updateOptions({ tabFocusMode: true })
  }
  // Capture: seen before Monaco acts, so a typed character is a tab-inserting keystroke again.
  const onOtherKey = (event: KeyboardEvent): void => {
    if (event.key === 'Tab' || event.key === 'Shift' || event.key === 'Escape') return
    disarm()
  }
  wrapper.addEventListener('keydown', onEscape)
  wrapper.addEventListener('keydown', onOtherKey, true)
  const blur = editor.onDidBlurEditorWidget(disarm)
  return () => {
    wrapper.removeEventListener('keydown', onEscape)
    wrapper.removeEventListener('keydown', onOtherKey, true)
    blur.dispose()
  }
}
