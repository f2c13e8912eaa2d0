import { useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useStore } from 'zustand'
import fuzzysort from 'fuzzysort'
import type { Session } from '@shared/schema/session'
import type { Worktree } from '@shared/schema/worktree'
import { chatFor, existingChat, useChatController, type ChatController } from '../../stores/chat'
import { chatScope, useChatScope } from '../../stores/chat-scope'
import { useProject } from '../../stores/project'
import { confirmDeleteSession, renameSessionDialog } from './actions'
import { SessionBadgeMark } from './SessionBadgeMark'
import { WorktreeGroupHead } from './WorktreeGroupHead'
import { background } from '../../lib/background'
import { Icon } from '../../components/Icon'

const NO_WORKTREES: Worktree[] = []

function ago(ms: number): string {
  const s = Math.round((Date.now() - ms) / 1000)
  if (s < 45) return 'now'
  if (s < 3600) return `${Math.round(s / 60)}m`
  if (s < 86_400) return `${Math.round(s / 3600)}h`
  if (s < 30 * 86_400) return `${Math.round(s / 86_400)}d`
  return new Date(ms).toLocaleDateString()
}

const keyOf = (projectId: string, sessionId: string): string => `${projectId}:${sessionId}`

interface GroupProps {
  tabId: string
  chat: ChatController
  worktree?: Worktree
  query: string
  cursor: string | null
  setCursor(key: string): void
  /** The tab shows more than one group: each gets a heading. */
  headed: boolean
}

/** The sessions of one folder of the tab (the main folder or a worktree), newest first, filtered by the query. */
function SessionGroup({ tabId, chat, worktree, query, cursor, setCursor, headed }: GroupProps) {
  const sessions = useStore(chat.store, (s) => s.sessions)
  const activeId = useStore(chat.store, (s) => s.activeSessionId)
  const listState = useStore(chat.store, (s) => s.listState)
  const shown = useChatController()
  const { roots, children } = useMemo(() => {
    const all = Object.values(sessions)
    const kids = new Map<string, Session[]>()
    for (const s of all) if (s.parentId) kids.set(s.parentId, [...(kids.get(s.parentId) ?? []), s])
    const top = all.filter((s) => s.parentId === null).sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1))
    return { roots: top, children: kids }
  }, [sessions])
  const list = useMemo(() => (query.trim() ? fuzzysort.go(query, roots, { key: 'title', limit: 200, threshold: 0.2 }).map((r) => r.obj) : roots), [query, roots])
  const unmerged = worktree !== undefined && worktree.status !== 'merged' && worktree.changedFiles > 0
  const open = (sessionId: string): void => {
    if (shown !== chat) shown.setShowSessions(false)
    chatScope.show(tabId, worktree?.name)
    chat.selectSession(sessionId)
  }
  const current = shown === chat
  const label = worktree ? `Worktree ${worktree.name}` : 'This folder'
  return (
    <li role="presentation" className="session-group" data-testid="session-group" data-worktree={worktree?.name ?? ''}>
      {headed && (worktree ? <WorktreeGroupHead tabId={tabId} worktree={worktree} /> : <div className="session-group-head">This folder</div>)}
      <ul role="group" aria-label={label} className="session-group-items">
        {listState === 'error' && <li className="error pad">The sessions could not be listed.</li>}
        {list.map((s) => {
          const key = keyOf(chat.projectId, s.id)
          const runs = children.get(s.id)?.length ?? 0
          return (
            <li
              key={s.id}
              role="option"
              aria-selected={key === cursor}
              className={`session-item${current && s.id === activeId ? ' current' : ''}${key === cursor ? ' cursor' : ''}`}
              onClick={() => open(s.id)}
              onMouseMove={() => setCursor(key)}
              data-testid="session-item"
              data-key={key}
              data-project-id={chat.projectId}
              data-session-id={s.id}
            >
              <SessionBadgeMark chat={chat} sessionId={s.id} unmerged={unmerged} />
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
                  <Icon name="pencil" />
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
                  <Icon name="trash" />
                </button>
              </span>
            </li>
          )
        })}
        {list.length === 0 && listState === 'ready' && <li className="muted pad">{query ? 'No session matches' : 'No sessions yet'}</li>}
      </ul>
    </li>
  )
}

/**
 * The tab's sessions, grouped by folder: the main folder first, then each worktree (with its branch, changes
 * and actions); newest first, filtered as you type. Enter opens, F2 renames, Delete deletes (after a confirm),
 * Esc returns to the chat.
 */
export function SessionList() {
  const chat = useChatController()
  const tabId = useProject((s) => s.projectId)
  const bridge = useProject((s) => s.bridge)
  const worktrees = useChatScope((s) => s.worktrees[tabId] ?? NO_WORKTREES)
  const [query, setQuery] = useState('')
  const [cursor, setCursor] = useState<string | null>(null)
  const list = useRef<HTMLUListElement>(null)

  const options = (): HTMLElement[] => [...(list.current?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])]
  const target = (): { chat: ChatController; sessionId: string } | null => {
    const all = options()
    const el = all.find((o) => o.dataset.key === cursor) ?? all[0]
    const owner = el?.dataset.projectId ? existingChat(el.dataset.projectId) : undefined
    return owner && el?.dataset.sessionId ? { chat: owner, sessionId: el.dataset.sessionId } : null
  }
  const move = (step: 1 | -1): void => {
    const all = options()
    if (all.length === 0) return
    // No cursor yet: the first session counts as the current one (Enter opens it).
    const index = Math.max(0, all.findIndex((o) => o.dataset.key === cursor))
    const next = all[Math.max(0, Math.min(all.length - 1, index + step))]
    if (!next?.dataset.key) return
    setCursor(next.dataset.key)
    next.scrollIntoView({ block: 'nearest' })
  }

  const onKeyDown = (e: KeyboardEvent): void => {
    const current = target()
    if (e.key === 'ArrowDown') move(1)
    else if (e.key === 'ArrowUp') move(-1)
    else if (e.key === 'Enter' && current) (options().find((o) => o.dataset.key === cursor) ?? options()[0])?.click()
    else if (e.key === 'F2' && current) background('renameSessionDialog', renameSessionDialog(current.chat, current.sessionId))
    else if (e.key === 'Delete' && current && !(e.target instanceof HTMLInputElement && query)) background('confirmDeleteSession', confirmDeleteSession(current.chat, current.sessionId))
    else if (e.key === 'Escape') chat.setShowSessions(false)
    else return
    e.preventDefault()
  }

  return (
    <div className="session-list" onKeyDown={onKeyDown} data-testid="session-list">
      <div className="session-search">
        <input
          autoFocus
          value={query}
          onChange={(e) => {
            setQuery(e.target.value)
            setCursor(null)
          }}
          placeholder="Search sessions"
          aria-label="Search sessions"
          data-testid="session-search"
        />
        <button type="button" onClick={() => background('chat.newSession', chat.newSession())} data-testid="session-new">
          New
        </button>
      </div>
      <ul ref={list} className="session-items" role="listbox" aria-label="Sessions">
        <SessionGroup tabId={tabId} chat={chatFor(bridge, tabId)} query={query} cursor={cursor} setCursor={setCursor} headed={worktrees.length > 0} />
        {worktrees.map((w) => (
          <SessionGroup key={w.name} tabId={tabId} chat={chatFor(bridge, w.projectId)} worktree={w} query={query} cursor={cursor} setCursor={setCursor} headed />
        ))}
      </ul>
    </div>
  )
}
