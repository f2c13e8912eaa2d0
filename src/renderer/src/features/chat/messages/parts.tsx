import { memo } from 'react'
import type { PartOf } from '@shared/schema/session'
import { Twisty } from '../../../components/Twisty'
import { useChat, useChatController } from '../../../stores/chat'
import { Markdown } from '../markdown/Markdown'

/** The model's thinking: one line until opened (it is long and rarely read). */
export const Reasoning = memo(function Reasoning({ part, streaming }: { part: PartOf<'reasoning'>; streaming: boolean }) {
  const chat = useChatController()
  const open = useChat((s) => s.expanded[part.id] ?? false)
  const redacted = !part.text && part.redactedData
  return (
    <div className="reasoning" data-testid="reasoning">
      <button type="button" className="reasoning-head" aria-expanded={open} onClick={() => chat.toggleExpanded(part.id, false)}>
        <Twisty open={open} />
        <span>{streaming ? 'Thinking…' : 'Thought'}</span>
        {!open && <span className="reasoning-preview muted">{redacted ? '(redacted)' : part.text.slice(-120)}</span>}
      </button>
      {open && <div className="reasoning-body">{redacted ? <p className="muted">The provider redacted this reasoning.</p> : <Markdown text={part.text} streaming={streaming} />}</div>}
    </div>
  )
})

export const Compaction = memo(function Compaction({ part }: { part: PartOf<'compaction'> }) {
  const chat = useChatController()
  const open = useChat((s) => s.expanded[part.id] ?? false)
  return (
    <div className="compaction" data-testid="compaction">
      <button type="button" className="reasoning-head" aria-expanded={open} onClick={() => chat.toggleExpanded(part.id, false)}>
        <Twisty open={open} />
        <span>{part.auto ? 'Context was full: earlier conversation summarized' : 'Conversation summarized'}</span>
      </button>
      {open && (
        <div className="reasoning-body">
          <Markdown text={part.summary} />
        </div>
      )}
    </div>
  )
})

