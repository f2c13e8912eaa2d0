import { useMemo, useRef, useState, type KeyboardEvent } from 'react'
import fuzzysort from 'fuzzysort'
import { formatShortcut } from '../../lib/keys'
import { useWorkspace, workspace } from '../../stores/workspace'
import { runCommand, useCommands, type Command } from './registry'

function label(command: Command): string {
  return `${command.category}: ${command.title}`
}

function Highlighted({ text, indexes }: { text: string; indexes: readonly number[] }) {
  const marks = new Set(indexes)
  return (
    <>
      {[...text].map((ch, i) => (marks.has(i) ? <mark key={i}>{ch}</mark> : <span key={i}>{ch}</span>))}
    </>
  )
}

/** Every action with its shortcut, fuzzy-filtered as you type (Mod+Shift+P). */
export function CommandPalette() {
  const open = useWorkspace((s) => s.paletteOpen)
  if (!open) return null
  return <PaletteBody />
}

function PaletteBody() {
  const commands = useCommands()
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const list = useRef<HTMLUListElement>(null)

  const results = useMemo(() => {
    const available = commands.filter((c) => !c.when || c.when()).sort((a, b) => label(a).localeCompare(label(b)))
    if (!query.trim()) return available.map((command) => ({ command, indexes: [] as readonly number[] }))
    return fuzzysort
      .go(query, available, { key: label, limit: 50, threshold: 0.2 })
      .map((r) => ({ command: r.obj, indexes: r.indexes }))
  }, [commands, query])

  const close = (): void => workspace.setPaletteOpen(false)
  const run = (command: Command | undefined): void => {
    if (!command) return
    close()
    runCommand(command.id)
  }
  const move = (delta: number): void => {
    const next = (active + delta + results.length) % Math.max(results.length, 1)
    setActive(next)
    list.current?.children[next]?.scrollIntoView({ block: 'nearest' })
  }
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'ArrowDown') move(1)
    else if (e.key === 'ArrowUp') move(-1)
    else if (e.key === 'Enter') run(results[active]?.command)
    else if (e.key === 'Escape') close()
    else return
    e.preventDefault()
    e.stopPropagation()
  }

  return (
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="palette" role="dialog" aria-label="Command palette" data-testid="command-palette">
        <input
          autoFocus
          className="palette-input"
          placeholder="Type a command"
          value={query}
          aria-controls="palette-list"
          aria-activedescendant={results[active] ? `palette-${results[active].command.id}` : undefined}
          onChange={(e) => {
            setQuery(e.target.value)
            setActive(0)
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
          spellCheck={false}
        />
        <ul id="palette-list" ref={list} role="listbox" className="palette-list">
          {results.map(({ command, indexes }, i) => (
            <li
              key={command.id}
              id={`palette-${command.id}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : ''}
              onMouseDown={(e) => {
                e.preventDefault()
                run(command)
              }}
              onMouseMove={() => setActive(i)}
            >
              <span className="palette-label">
                <Highlighted text={label(command)} indexes={indexes} />
              </span>
              {command.keys && <kbd>{formatShortcut(command.keys)}</kbd>}
            </li>
          ))}
          {results.length === 0 && <li className="muted palette-none">No matching command</li>}
        </ul>
      </div>
    </div>
  )
}
