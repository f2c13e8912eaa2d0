import { useEffect, type ReactNode } from 'react'
import { ChatContext, chatFor, useChat, useChatController, useCheckpoints, worktreesFor } from '../../stores/chat'
import { shownChatProject, useChatScope } from '../../stores/chat-scope'
import { useProject } from '../../stores/project'
import { useWorkspace } from '../../stores/workspace'
import { WorktreeBar, WorktreeOverlays } from '../worktrees'
import { ChangesOverlay, RestoreBanner, RestoreDialog, Timeline } from '../checkpoints'
import { PermissionDock } from '../permissions'
import { ReviewBar } from '../review'
import { documentsFor } from '../editor'
import { useShownFolderStore } from '../../stores/shown-folder'
import { SessionList } from '../sessions'
import { ChatHeader } from './ChatHeader'
import { Composer } from './composer/Composer'
import { MessageList } from './messages/MessageList'
import { TodoPanel } from './TodoPanel'

/** A failed turn shown in the active tab has been seen: the tab's red dot goes (the error stays on the message). */
function useErrorSeen(sessionId: string): void {
  const chat = useChatController()
  const tabId = useProject((s) => s.projectId)
  const active = useWorkspace((s) => s.activeId === tabId)
  const error = useChat((s) => s.turnErrors[sessionId])
  const seen = useChat((s) => s.seenErrors[sessionId])
  useEffect(() => {
    if (!active || error === undefined || seen === error) return
    chat.store.setState((s) => ({ seenErrors: { ...s.seenErrors, [sessionId]: error } }))
  }, [active, error, seen, chat, sessionId])
}

function Transcript({ sessionId }: { sessionId: string }) {
  useErrorSeen(sessionId)
  const chat = useChatController()
  // Each user message offers "Restore to here": its checkpoint comes from this list.
  useEffect(() => chat.checkpoints.ensure(sessionId), [chat, sessionId])
  const status = useChat((s) => s.transcripts[sessionId]?.status ?? 'loading')
  const error = useChat((s) => s.transcripts[sessionId]?.error)
  const empty = useChat((s) => (s.transcripts[sessionId]?.order.length ?? 0) === 0 && !(s.pending[sessionId]?.length ?? 0))
  if (status === 'error') return <div className="chat-empty error">Could not load this session: {error}</div>
  if (status === 'loading' && empty) return <div className="chat-empty muted">Loading…</div>
  return (
    <div className="chat-transcript">
      <TodoPanel sessionId={sessionId} />
      {empty ? <EmptyChat /> : <MessageList sessionId={sessionId} />}
    </div>
  )
}

function EmptyChat() {
  return (
    <div className="chat-empty" data-testid="chat-empty">
      <p className="chat-empty-title">What should we build?</p>
      <p className="muted">
        The agent reads, edits and runs things in this project and asks before it changes files or runs commands. Type <kbd>@</kbd> to mention a file, <kbd>/</kbd> for commands.
      </p>
    </div>
  )
}

/**
 * The agent panel of a project tab: the chat of its main folder, or of the worktree the user switched to
 * (each worktree is a project with its own sessions); its sessions, transcript, permission asks and input.
 */
export function ChatPanel() {
  const tabId = useProject((s) => s.projectId)
  const bridge = useProject((s) => s.bridge)
  // The tab's worktrees are listed (and their projects opened) as soon as the tab shows.
  useEffect(() => {
    worktreesFor(bridge, tabId)
  }, [bridge, tabId])
  const shown = useChatScope((s) => shownChatProject(tabId, s))
  const worktree = useChatScope((s) => s.worktrees[tabId]?.find((w) => w.projectId === shown))
  return (
    <ChatContext.Provider value={chatFor(bridge, shown)}>
      <ScopedChat key={shown} worktreeBar={worktree ? <WorktreeBar tabId={tabId} worktree={worktree} /> : null} />
      <WorktreeOverlays />
    </ChatContext.Provider>
  )
}

function ScopedChat({ worktreeBar }: { worktreeBar: ReactNode }) {
  const chat = useChatController()
  const activeId = useChat((s) => s.activeSessionId)
  const showSessions = useChat((s) => s.showSessions)
  const showTimeline = useCheckpoints((s) => s.showTimeline)
  const folder = useShownFolderStore()
  // The first session of a chat keeps the input that was on screen while it was created.
  const composerKey = useChat((s) => (s.activeSessionId === s.fromNoSession ? '' : (s.activeSessionId ?? '')))
  // The timeline opens above the conversation, which stays in view below it.
  const main = showSessions ? (
    <SessionList />
  ) : activeId ? (
    <>
      {showTimeline && <Timeline key={`timeline-${activeId}`} sessionId={activeId} />}
      <Transcript key={`transcript-${activeId}`} sessionId={activeId} />
    </>
  ) : (
    <EmptyChat />
  )
  return (
    <div className="chat" data-testid="chat-panel" data-project-id={chat.projectId} data-session-id={activeId ?? ''}>
      <ChatHeader />
      {worktreeBar}
      {main}
      <RestoreBanner />
      <PermissionDock />
      {!showSessions && activeId && <ReviewBar onShow={(stop) => documentsFor(folder).openAt(stop.path, { line: stop.line, column: 1, endColumn: 1 })} />}
      {!showSessions && <Composer key={`composer-${composerKey}`} sessionId={activeId} />}
      <ChangesOverlay />
      <RestoreDialog />
    </div>
  )
}
