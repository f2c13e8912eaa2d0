import { useLayoutEffect, useMemo } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { Message } from '@shared/schema/session'
import { useChat } from '../../../stores/chat'
import { useStore } from 'zustand'
import { useShownFolderStore } from '../../../stores/shown-folder'
import { ChatFooter } from './ChatFooter'
import { MessageRow } from './MessageRow'
import { layoutTurns } from './turns'
import { useFollowBottom } from './follow-bottom'

const NO_IDS: string[] = []
const NO_INFOS: Record<string, Message> = {}

/**
 * The transcript as a virtual list (only rows near the viewport exist in the
 * DOM, measured as they render), pinned to the bottom while the user is there.
 */
export function MessageList({ sessionId }: { sessionId: string }) {
  // Tool cards name files relative to the folder the session works in.
  const root = useStore(useShownFolderStore(), (s) => s.root)
  const order = useChat((s) => s.transcripts[sessionId]?.order) ?? NO_IDS
  const infos = useChat((s) => s.transcripts[sessionId]?.infos) ?? NO_INFOS
  const layout = useMemo(() => layoutTurns(order, infos), [order, infos])
  const { scroller, content, atBottom, follow, handlers } = useFollowBottom()
  // What the user just sent: a new message of theirs on its way or in the transcript.
  const sending = useChat((s) => s.pending[sessionId]?.length ?? 0)
  const lastUser = useMemo(() => order.findLast((id) => infos[id]?.role === 'user'), [order, infos])

  // The React Compiler is not used here; useVirtualizer's unmemoizable functions are its intended API.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (infos[order[i] ?? '']?.role === 'user' ? 56 : 140),
    getItemKey: (i) => order[i] ?? i,
    overscan: 6,
  })

  // Sending always shows the message and follows the answer, wherever the user had scrolled to.
  useLayoutEffect(() => {
    if (sending > 0) follow()
  }, [sending, follow])
  useLayoutEffect(() => follow(), [lastUser, follow])

  const items = virtualizer.getVirtualItems()
  return (
    <div className="chat-list-wrap">
      <div ref={scroller} className="chat-scroll" {...handlers} data-testid="message-list" tabIndex={-1}>
        <div ref={content} className="chat-content">
          <div className="chat-virtual" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const id = order[item.index] ?? ''
              return (
                <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="chat-row" style={{ transform: `translateY(${item.start}px)` }}>
                  <MessageRow sessionId={sessionId} messageId={id} root={root} recent={item.index >= layout.lastTurnStart} summary={layout.summaries.get(id)} />
                </div>
              )
            })}
          </div>
          <ChatFooter sessionId={sessionId} />
        </div>
      </div>
      {!atBottom && (
        <button
          type="button"
          className="jump-bottom"
          aria-label="Scroll to the latest message"
          onClick={follow}
        >
          ↓
        </button>
      )}
    </div>
  )
}
