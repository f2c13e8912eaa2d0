import { useStore } from 'zustand'
import type { PreviewStore } from './preview-store'

const ICON = { error: '⨯', warning: '⚠', info: 'ℹ', log: '›', debug: '·' } as const

/** The page's console errors and warnings, newest last. */
export function PreviewConsole({ store }: { store: PreviewStore }) {
  const entries = useStore(store, (s) => s.console)
  return (
    <section className="preview-console" aria-label="Preview console" data-testid="preview-console">
      <header className="preview-console-head">
        <span>Console</span>
        <button type="button" className="ghost small" onClick={() => store.setState({ console: [] })} disabled={entries.length === 0}>
          Clear
        </button>
      </header>
      {entries.length === 0 ? (
        <p className="muted preview-console-empty">No errors or warnings from the page.</p>
      ) : (
        <ul>
          {entries.map((entry, i) => (
            <li key={i} className={`preview-console-entry preview-console-${entry.level}`} data-testid="preview-console-entry" data-level={entry.level}>
              <span className="preview-console-icon" aria-label={entry.level}>
                {ICON[entry.level]}
              </span>
              <span className="preview-console-message mono">{entry.text}</span>
              {entry.url && (
                <span className="muted mono preview-console-source" title={entry.url}>
                  {entry.url.split('/').pop()}
                  {entry.line ? `:${entry.line}` : ''}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
