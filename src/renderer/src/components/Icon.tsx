import '@vscode/codicons/dist/codicon.css'

/** The codicon names this app uses; one list, so a glyph is never named in two spellings. */
export type IconName =
  | 'check'
  | 'check-all'
  | 'close'
  | 'close-all'
  | 'arrow-down'
  | 'edit'
  | 'diff'
  | 'file-code'
  | 'selection'

/** A VS Code codicon (font glyph), sized with the text around it; decorative unless given a label. */
export function Icon({ name, label, className }: { name: IconName; label?: string; className?: string }) {
  return <span className={`codicon codicon-${name}${className ? ` ${className}` : ''}`} {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })} />
}
