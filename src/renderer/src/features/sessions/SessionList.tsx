import { useMemo, useRef, useState, type KeyboardEvent } from 'react'
import fuzzysort from 'fuzzysort'
import type { Session } from '@shared/schema/session'
import { useChat, useChatController } from '../../stores/chat'
import { SessionBadgeMark } from './SessionBadgeMark'
import { confirmDeleteSession, renameSessionDialog } from './actions'
import { background } from '../../lib/background'

function ago(ms: number): string {
  const s = Math.round((Date.now() - ms) / 1000)
  if (s < 45) return 'now'
  if (s < 3600) return `${Math.round(s / 60)}m`
  if (s < 86_400) return `${Math.round(s / 3600)}h`
  if (s < 30 * 86_400) return `${Math.round(s / 86_400)}d`
  return new Date(ms).toLocaleDateString()
}

/**
 * The project's sessions, newest first, filtered as you type. Enter opens,
 * F2 renames, Delete deletes (after a confirm), Esc returns to the chat.
 */
export function SessionList() {
  const chat = useChatController()
  const sessions = useChat((s) => s.sessions)
  const activeId = useChat((s) => s.activeSessionId)
  const listState = useChat((s) => s.listState)
  const [query, setQuery] = useState('')
  const [cursor, setCursor] = useState(0)
  const list = useRef<HTMLUListElement>(null)

  const { roots, children } = useMemo(() => {
    const all = Object.values(sessions)
    const kids = new Map<string, Session[]>()
    for (const s of all) if (s.parentId) kids.set(s.parentId, [...(kids.get(s.parentId) ?? []), s])
    const top = all.filter((s) => s.parentId === null).sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1))
    return { roots: top, children: kids }
  }, [sessions])

  const shown = useMemo(() => (query.trim() ? fuzzysort.go(query, roots, { key: 'title', limit: 200, threshold: 0.2 }).map((r) => r.obj) : roots), [query, roots])
  const current = shown[Math.min(cursor, shown.length - 1)]

  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'ArrowDown') setCursor((c) => Math.min(shown.length - 1, c + 1))
    else if (e.key === 'ArrowUp') setCursor((c) => Math.max(0, c - 1))
    else if (e.key === 'Enter' && current) chat.selectSession(current.id)
    else if (e.key === 'F2' && current) background('renameSessionDialog', renameSessionDialog(chat, current.id))
    else if (e.key === 'Delete' && current && !(e.target instanceof HTMLInputElement && query)) background('confirmDeleteSession', confirmDeleteSession(chat, current.id))
    else if (e.key === 'Escape') chat.setShowSessions(false)
    else return
    e.preventDefault()
    list.current?.children[Math.min(cursor, shown.length - 1)]?.scrollIntoView({ block: 'nearest' })
  }

  return (
    <div className="session-list" onKeyDown={onKeyDown} data-testid="session-list">
      <div className="session-search">
        <input
          autoFocus
          value={query}
          onChange={(e) => {
            setQuery(e.target.value)
            setCursor(0)
          }}
          placeholder="Search sessions"
          aria-label="Search sessions"
          data-testid="session-search"
        />
        <button type="button" onClick={() => background('chat.newSession', chat.newSession())} data-testid="session-new">
          New
        </button>
      </div>
      {listState === 'error' && <div className="error pad">The sessions could not be listed.</div>}
      <ul ref={list} className="session-items" role="listbox" aria-label="Sessions">
        {shown.map((s, i) => {
          const runs = children.get(s.id)?.length ?? 0
          return (
            <li
              key={s.id}
              role="option"
              aria-selected={s.id === current?.id}
              className={`session-item${s.id === activeId ? ' current' : ''}${s.id === current?.id ? ' cursor' : ''}`}
              onClick={() => chat.selectSession(s.id)}
              onMouseMove={() => setCursor(i)}
              data-testid="session-item"
              data-session-id={s.id}
            >
              <SessionBadgeMark sessionId={s.id} />
              <span className="session-title">{s.title}</span>
              {runs > 0 && (
                <span className="muted session-runs" title={`${runs} subagent run${runs === 1 ? '' : 's'}`}>
                  {runs} sub
                </span>
              )}
              <span className="muted session-when" title={new Date(s.updatedAt).toLocaleString()}>
                {ago(s.updatedAt)}
              </span>
              <span className="session-actions">
                <button
                  type="button"
                  className="icon"
                  aria-label={`Rename ${s.title}`}
                  title="Rename (F2)"
                  onClick={(e) => {
                    e.stopPropagation()
                    background('renameSessionDialog', renameSessionDialog(chat, s.id))
                  }}
                >
                  ✎
                </button>
                <button
                  type="button"
                  className="icon"
                  aria-label={`Delete ${s.title}`}
                  title="Delete (Del)"
                  onClick={(e) => {
                    e.stopPropagation()
                    background('confirmDeleteSession', confirmDeleteSession(chat, s.id))
                  }}
                  data-testid="session-delete"
                >
                  ✕
                </button>
              </span>
            </li>
          )
        })}
        {shown.length === 0 && listState === 'ready' && <li className="muted pad">{query ? 'No session matches' : 'No sessions yet'}</li>}
      </ul>
    </div>
  )
}
