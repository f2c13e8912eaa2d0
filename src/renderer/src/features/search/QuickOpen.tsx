import { useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useStore } from 'zustand'
import { existingProjectStore, type ProjectStore } from '../../stores/project'
import { projectClient, type ProjectClient } from '../../stores/project-client'
import { useWorkspace, workspace } from '../../stores/workspace'
import { useChatScope } from '../../stores/chat-scope'
import { shownWorktree } from '../../stores/shown-folder'
import { documentsFor } from '../editor'
import { rankFiles } from './rank'
import { FileIcon } from '../../components/FileIcon'

function Highlighted({ text, indexes }: { text: string; indexes: readonly number[] }) {
  const marks = new Set(indexes)
  return (
    <>
      {[...text].map((ch, i) => (marks.has(i) ? <mark key={i}>{ch}</mark> : <span key={i}>{ch}</span>))}
    </>
  )
}

/** Go to a file by name (Mod+P): fuzzy over the project's file index, recent files first. */
export function QuickOpen() {
  const open = useWorkspace((s) => s.quickOpen)
  const activeId = useWorkspace((s) => s.activeId)
  const bridge = useWorkspace((s) => s.bridge)
  // The folder on screen: a worktree's files while its chat is shown.
  const folderId = useChatScope((s) => (activeId ? (shownWorktree(activeId, s)?.projectId ?? activeId) : undefined))
  const store = folderId ? existingProjectStore(folderId) : undefined
  if (!open || !folderId || !bridge || !store) return null
  return <QuickOpenBody key={folderId} store={store} client={projectClient(bridge, folderId)} />
}

function QuickOpenBody({ store, client }: { store: ProjectStore; client: ProjectClient }) {
  const [fetched, setFetched] = useState<string[] | null>(null)
  const [initial] = useState<string[]>(() => client.files.get(setFetched))
  const files = fetched ?? initial
  const recent = useStore(store, (s) => s.recentFiles)
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const list = useRef<HTMLUListElement>(null)
  const results = useMemo(() => rankFiles(query, files, recent), [query, files, recent])

  const close = (): void => workspace.setQuickOpen(false)
  const choose = (path: string | undefined): void => {
    if (!path) return
    close()
    documentsFor(store).open(path)
  }
  const move = (delta: number): void => {
    const next = (active + delta + results.length) % Math.max(results.length, 1)
    setActive(next)
    list.current?.children[next]?.scrollIntoView({ block: 'nearest' })
  }
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'ArrowDown') move(1)
    else if (e.key === 'ArrowUp') move(-1)
    else if (e.key === 'Enter') choose(results[active]?.path)
    else if (e.key === 'Escape') close()
    else return
    e.preventDefault()
    e.stopPropagation()
  }
  const optionId = (i: number): string => `quick-open-${i}`

  return (
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="palette" role="dialog" aria-label="Go to file" data-testid="quick-open">
        <input
          autoFocus
          className="palette-input"
          placeholder="Go to file by name"
          aria-label="File name"
          value={query}
          role="combobox"
          aria-expanded
          aria-controls="quick-open-list"
          aria-activedescendant={results[active] ? optionId(active) : undefined}
          onChange={(e) => {
            setQuery(e.target.value)
            setActive(0)
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
          spellCheck={false}
        />
        <ul id="quick-open-list" ref={list} role="listbox" aria-label="Files" className="palette-list">
          {results.map((r, i) => (
              <li
                key={r.path}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                aria-label={r.path}
                className={i === active ? 'active' : ''}
                onMouseDown={(e) => {
                  e.preventDefault()
                  choose(r.path)
                }}
                onMouseMove={() => setActive(i)}
              >
                <FileIcon path={r.path} />
                <span className="palette-label">
                  <Highlighted text={r.path} indexes={r.indexes} />
                </span>
                {r.recent && <span className="muted quick-open-recent">recently opened</span>}
              </li>
          ))}
          {results.length === 0 && <li className="muted palette-none">{files.length === 0 ? 'Listing files…' : 'No matching file'}</li>}
          {client.files.isTruncated && <li className="muted palette-none">Large project: only the first files are listed.</li>}
        </ul>
      </div>
    </div>
  )
}
