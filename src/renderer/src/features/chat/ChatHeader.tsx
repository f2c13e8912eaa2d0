import { useState, type MouseEvent } from 'react'
import { ContextMenu, type MenuItem } from '../../components/ContextMenu'
import { StatusGlyph } from '../../components/StatusGlyph'
import { useChat, useChatController, useCheckpoints } from '../../stores/chat'
import { openSettings } from '../settings'
import { confirmDeleteSession, renameSessionDialog } from '../sessions'
import { background } from '../../lib/background'

/** Session switcher, title, new session and settings: one dense row. */
export function ChatHeader() {
  const chat = useChatController()
  const activeId = useChat((s) => s.activeSessionId)
  const title = useChat((s) => (s.activeSessionId ? s.sessions[s.activeSessionId]?.title : undefined))
  const busy = useChat((s) => (s.activeSessionId ? (s.statuses[s.activeSessionId]?.type ?? 'idle') !== 'idle' : false))
  const showing = useChat((s) => s.showSessions)
  const timeline = useCheckpoints((s) => s.showTimeline)
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null)
  const items: MenuItem[] = activeId
    ? [
        { id: 'rename', label: 'Rename…', onSelect: () => background('renameSessionDialog', renameSessionDialog(chat, activeId)) },
        { id: 'compact', label: 'Compact conversation', onSelect: () => background('chat.compact', chat.compact(activeId)) },
        { kind: 'separator', id: 's1' },
        { id: 'delete', label: 'Delete session…', danger: true, onSelect: () => background('confirmDeleteSession', confirmDeleteSession(chat, activeId)) },
      ]
    : []
  const openMenu = (e: MouseEvent<HTMLButtonElement>): void => {
    const rect = e.currentTarget.getBoundingClientRect()
    setMenu({ x: rect.left, y: rect.bottom + 2 })
  }
  return (
    <header className="chat-header">
      <button
        type="button"
        className={`icon chat-sessions-toggle${showing ? ' on' : ''}`}
        aria-label="Sessions"
        aria-pressed={showing}
        title="Sessions"
        onClick={() => chat.setShowSessions(!showing)}
        data-testid="sessions-toggle"
      >
        ☰
      </button>
      <span className="chat-title" title={title} data-testid="chat-title" onDoubleClick={() => activeId && void renameSessionDialog(chat, activeId)}>
        {showing ? 'Sessions' : timeline && activeId ? `Checkpoints · ${title ?? ''}` : (title ?? 'New session')}
      </span>
      {busy && <StatusGlyph state="running" />}
      <span className="chat-header-actions">
        <button type="button" className="icon" aria-label="New session" title="New session" onClick={() => background('chat.newSession', chat.newSession())} data-testid="new-session">
          +
        </button>
        {activeId && (
          <button
            type="button"
            className={`icon${timeline && !showing ? ' on' : ''}`}
            aria-label="Checkpoints"
            aria-pressed={timeline && !showing}
            title="Checkpoints of this session"
            onClick={() => {
              chat.setShowSessions(false)
              chat.checkpoints.setShowTimeline(!timeline || showing)
            }}
            data-testid="timeline-toggle"
          >
            ↺
          </button>
        )}
        {activeId && (
          <button type="button" className="icon" aria-label="Session actions" title="Session actions" onClick={openMenu} data-testid="session-menu">
            ⋯
          </button>
        )}
        <button type="button" className="icon" aria-label="Settings" title="Settings" onClick={() => openSettings()} data-testid="open-settings">
          ⚙
        </button>
      </span>
      {menu && <ContextMenu x={menu.x} y={menu.y} items={items} onClose={() => setMenu(null)} label="Session actions" />}
    </header>
  )
}
