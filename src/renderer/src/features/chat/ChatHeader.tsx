import { useState, type MouseEvent } from 'react'
import { ContextMenu, type MenuItem } from '../../components/ContextMenu'
import { StatusGlyph } from '../../components/StatusGlyph'
import { chatFor, useChat, useChatController, useCheckpoints } from '../../stores/chat'
import { chatScope, worktreeOfProject } from '../../stores/chat-scope'
import { useProject } from '../../stores/project'
import { showWorktreeView } from '../worktrees'
import { openSettings } from '../settings'
import { confirmDeleteSession, renameSessionDialog } from '../sessions'
import { background } from '../../lib/background'
import { Icon } from '../../components/Icon'

/** Session switcher, title, new session and settings: one dense row. */
export function ChatHeader() {
  const chat = useChatController()
  const activeId = useChat((s) => s.activeSessionId)
  const title = useChat((s) => (s.activeSessionId ? s.sessions[s.activeSessionId]?.title : undefined))
  const busy = useChat((s) => (s.activeSessionId ? (s.statuses[s.activeSessionId]?.type ?? 'idle') !== 'idle' : false))
  const showing = useChat((s) => s.showSessions)
  const timeline = useCheckpoints((s) => s.showTimeline)
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null)
  const [newMenu, setNewMenu] = useState<{ x: number; y: number } | null>(null)
  const tabId = useProject((s) => s.projectId)
  const bridge = useProject((s) => s.bridge)
  const worktree = chat.projectId === tabId ? undefined : worktreeOfProject(chat.projectId)
  const newItems: MenuItem[] = [
    {
      id: 'here',
      label: worktree ? `New session in worktree ${worktree.name}` : 'New session in this folder',
      onSelect: () => background('chat.newSession', chat.newSession()),
    },
    ...(worktree
      ? [
          {
            id: 'main',
            label: 'New session in the main folder',
            onSelect: () => {
              chatScope.show(tabId, undefined)
              background('chat.newSession', chatFor(bridge, tabId).newSession())
            },
          },
        ]
      : []),
    { id: 'worktree', label: 'New session in a new worktree…', onSelect: () => showWorktreeView({ kind: 'create', tabId }) },
  ]
  const items: MenuItem[] = activeId
    ? [
        { id: 'rename', label: 'Rename…', onSelect: () => background('renameSessionDialog', renameSessionDialog(chat, activeId)) },
        { id: 'compact', label: 'Compact conversation', onSelect: () => background('chat.compact', chat.compact(activeId)) },
        { kind: 'separator', id: 's1' },
        { id: 'delete', label: 'Delete session…', danger: true, onSelect: () => background('confirmDeleteSession', confirmDeleteSession(chat, activeId)) },
      ]
    : []
  const below = (e: MouseEvent<HTMLButtonElement>): { x: number; y: number } => {
    const rect = e.currentTarget.getBoundingClientRect()
    return { x: rect.left, y: rect.bottom + 2 }
  }
  const openMenu = (e: MouseEvent<HTMLButtonElement>): void => setMenu(below(e))
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
        <Icon name="menu" />
      </button>
      <span className="chat-title" title={title} data-testid="chat-title" onDoubleClick={() => activeId && void renameSessionDialog(chat, activeId)}>
        {showing ? 'Sessions' : (title ?? 'New session')}
      </span>
      {busy && <StatusGlyph state="running" />}
      <span className="chat-header-actions">
        <button type="button" className="icon" aria-label="New session" aria-haspopup="menu" title="New session: in this folder or in a new worktree" onClick={(e) => setNewMenu(below(e))} data-testid="new-session">
          <Icon name="add" />
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
            <Icon name="history" />
          </button>
        )}
        {activeId && (
          <button type="button" className="icon" aria-label="Session actions" title="Session actions" onClick={openMenu} data-testid="session-menu">
            <Icon name="ellipsis" />
          </button>
        )}
        <button type="button" className="icon" aria-label="Settings" title="Settings" onClick={() => openSettings()} data-testid="open-settings">
          <Icon name="settings-gear" />
        </button>
      </span>
      {menu && <ContextMenu x={menu.x} y={menu.y} items={items} onClose={() => setMenu(null)} label="Session actions" />}
      {newMenu && <ContextMenu x={newMenu.x} y={newMenu.y} items={newItems} onClose={() => setNewMenu(null)} label="New session" />}
    </header>
  )
}
