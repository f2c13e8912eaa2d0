import { useEffect, useRef } from 'react'

export interface Suggestion {
  id: string
  label: string
  detail?: string
  /** Matched character positions in `label` (fuzzy search), highlighted. */
  indexes?: readonly number[]
}

interface SuggestListProps {
  items: Suggestion[]
  active: number
  label: string
  testId?: string
  empty?: string
  /** Lines under the items, e.g. sources that failed to list. */
  notes?: readonly string[]
  onPick(item: Suggestion): void
  onHover(index: number): void
}

function Marked({ text, indexes }: { text: string; indexes?: readonly number[] }) {
  if (!indexes?.length) return <>{text}</>
  const marks = new Set(indexes)
  return <>{[...text].map((ch, i) => (marks.has(i) ? <mark key={i}>{ch}</mark> : ch))}</>
}

/** A completion popup (mentions, slash commands); the input that owns it handles the keys. */
export function SuggestList({ items, active, label, testId, empty, notes, onPick, onHover }: SuggestListProps) {
  const list = useRef<HTMLUListElement>(null)
  useEffect(() => {
    list.current?.children[active]?.scrollIntoView({ block: 'nearest' })
  }, [active])
  return (
    <ul ref={list} className="suggest" role="listbox" aria-label={label} data-testid={testId}>
      {items.map((item, i) => (
        <li
          key={item.id}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'active' : ''}
          onMouseDown={(e) => {
            e.preventDefault()
            onPick(item)
          }}
          onMouseMove={() => onHover(i)}
        >
          <span className="suggest-label">
            <Marked text={item.label} indexes={item.indexes} />
          </span>
          {item.detail && <span className="suggest-detail">{item.detail}</span>}
        </li>
      ))}
      {items.length === 0 && empty && <li className="muted suggest-empty">{empty}</li>}
      {notes?.map((note) => (
        <li key={note} className="suggest-empty suggest-note" role="alert">
          {note}
        </li>
      ))}
    </ul>
  )
}
