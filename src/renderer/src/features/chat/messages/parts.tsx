import { memo } from 'react'
import type { HookEventName, HookFailure, PartOf } from '@shared/schema/session'
import { Twisty } from '../../../components/Twisty'
import { useChat, useChatController } from '../../../stores/chat'
import { reasoningTokensLabel } from '../format'
import { Markdown } from '../markdown/Markdown'

/** The model's thinking: one line until opened (it is long and rarely read). */
export const Reasoning = memo(function Reasoning({
  part,
  streaming,
  reportedTokens,
}: {
  part: PartOf<'reasoning'>
  streaming: boolean
  /** The provider's count for this block; without one the size is estimated from the text. */
  reportedTokens?: number
}) {
  const chat = useChatController()
  const open = useChat((s) => s.expanded[part.id] ?? false)
  const redacted = !part.text && part.redactedData
  return (
    <div className="reasoning" data-testid="reasoning">
      <button type="button" className="reasoning-head" aria-expanded={open} onClick={() => chat.toggleExpanded(part.id, false)}>
        <Twisty open={open} />
        <span>{streaming ? 'Thinking…' : 'Thought'}</span>
        {!redacted && (
          <span className="reasoning-tokens muted" data-testid="reasoning-tokens">
            {reasoningTokensLabel(part.text, streaming ? undefined : reportedTokens)}
          </span>
        )}
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

const HOOK_WHEN: Record<HookEventName, string> = {
  UserPromptSubmit: 'before this message was sent',
  SessionStart: 'when the session started',
  Stop: 'when the turn ended',
  PreToolUse: 'before this call',
  PostToolUse: 'after this call',
}

/** Hooks that failed, timed out or could not run, shown where they ran (they do not block). */
export function HookFailures({ event, failures }: { event?: HookEventName; failures: readonly HookFailure[] }) {
  return (
    <div className="hook-failures" role="status" data-testid="hook-failures" data-event={event ?? ''}>
      {failures.map((f, i) => (
        <div key={i} className="hook-failure">
          <span className="hook-failure-title">
            ⚠ {event ? `${event} hook failed ${HOOK_WHEN[event]}` : 'A hook failed'}:
          </span>{' '}
          <code>{f.command}</code> — {f.error}
        </div>
      ))}
    </div>
  )
}
