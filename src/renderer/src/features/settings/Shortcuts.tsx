import { formatShortcut } from '../../lib/keys'
import { allCommands } from '../commands'
import { matchesQuery } from './settings-search'

/** The commands that have a key, sorted by category and title. */
export function shortcutCommands(): { id: string; label: string; keys: string }[] {
  return allCommands()
    .filter((c) => c.keys)
    .map((c) => ({ id: c.id, label: `${c.category}: ${c.title}`, keys: c.keys ?? '' }))
    .sort((a, b) => a.label.localeCompare(b.label))
}

/** The keyboard shortcuts, narrowed to those matching `query`. */
export function Shortcuts({ query }: { query: string }) {
  const rows = shortcutCommands().filter((c) => matchesQuery(query, [c.label, formatShortcut(c.keys)]))
  return (
    <table className="settings-table" aria-label="Keyboard shortcuts">
      <tbody>
        {rows.map((c) => (
          <tr key={c.id}>
            <td>{c.label}</td>
            <td>
              <kbd>{formatShortcut(c.keys)}</kbd>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
