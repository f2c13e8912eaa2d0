import { useEffect, useState } from 'react'
import { background } from '../../../lib/background'
import { retryLine } from './error-text'
import { useShallow } from 'zustand/react/shallow'
import { useChat, useChatController } from '../../../stores/chat'
import { QuestionPrompt } from '../../permissions'

/** Seconds until `at`, ticking each second while there are any (null once it has passed). */
function useSecondsUntil(at: number | undefined): number | null {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (at === undefined || at <= Date.now()) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [at])
  if (at === undefined) return null
  const left = Math.ceil((at - now) / 1000)
  return left > 0 ? left : null
}

/** Retry countdown (the provider's own words in its tooltip) or a quiet "working" line while the agent runs. */
function Activity({ sessionId }: { sessionId: string }) {
  const status = useChat((s) => s.statuses[sessionId])
  const left = useSecondsUntil(status?.type === 'retry' ? status.nextAt : undefined)
  if (!status || status.type === 'idle') return null
  return (
    <div className={`activity muted${status.type === 'retry' ? ' retrying' : ''}`} data-testid="agent-activity" aria-live="polite" title={status.type === 'retry' ? status.message : undefined}>
      <span className="glyph glyph-running" aria-hidden />
      {status.type === 'retry' ? retryLine(status.attempt, status.message, left) : 'Working…'}
    </div>
  )
}

/** What follows the transcript: prompts on their way, questions for the user, the last error. */
export function ChatFooter({ sessionId }: { sessionId: string }) {
  const chat = useChatController()
  const pending = useChat((s) => s.pending[sessionId])
  const unsent = useChat((s) => s.unsent[sessionId])
  const error = useChat((s) => s.turnErrors[sessionId])
  // The failed turn's message shows the same error already (with its actions): once is enough.
  const onMessage = useChat((s) => {
    const transcript = s.transcripts[sessionId]
    const last = transcript?.order.at(-1)
    return error !== undefined && last !== undefined && transcript?.infos[last]?.error?.data.message === error
  })
  const questions = useChat(
    useShallow((s) => s.questions.filter((q) => q.sessionId === sessionId || s.sessions[q.sessionId]?.parentId === sessionId)),
  )
  return (
    <div className="chat-footer">
      <Activity sessionId={sessionId} />
      {pending?.map((p) => (
        <div key={p.id} className="msg msg-user pending" data-testid="queued-message" data-queued={p.queued}>
          <div className="msg-user-text">{p.text}</div>
          <span className="badge-pill">{p.queued ? 'Queued' : 'Sending…'}</span>
        </div>
      ))}
      {unsent?.map((text, i) => (
        <div key={`unsent-${i}`} className="msg msg-user pending unsent" role="group" aria-label="Message not sent" data-testid="unsent-message">
          <div className="msg-user-text">{text}</div>
          <span className="muted">The connection dropped before Hotaru confirmed this message.</span>
          <span className="unsent-actions">
            <button type="button" className="small" onClick={() => background('chat.resend', chat.resend(sessionId, i, true))}>
              Send again
            </button>
            <button type="button" className="small ghost" onClick={() => background('chat.resend', chat.resend(sessionId, i, false))}>
              Discard
            </button>
          </span>
        </div>
      ))}
      {questions.map((q) => (
        <QuestionPrompt key={q.id} question={q} />
      ))}
      {error && !onMessage && (
        <div className="msg-error" role="alert" data-testid="turn-error">
          {error}
        </div>
      )}
    </div>
  )
}
