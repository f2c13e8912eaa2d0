import type { SelectHTMLAttributes } from 'react'
import { Icon } from './Icon'

/**
 * A native `<select>` drawn in the theme (`appearance: none`, a codicon chevron): the browser keeps what a
 * listbox must do — arrow keys, type-ahead, Alt+↓ to open, screen readers announcing it as a combobox — and the
 * open list follows the theme through `color-scheme`.
 */
export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <span className={className ? `select ${className}` : 'select'}>
      <select {...props} />
      <Icon name="chevron-down" className="select-chevron" />
    </span>
  )
}
