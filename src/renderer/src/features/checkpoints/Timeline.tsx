import { useEffect, useState, type KeyboardEvent } from 'react'
import type { Checkpoint } from '@shared/schema/checkpoint'
import { REVIEW_NOTE_END, useChat, useChatController, useCheckpoints } from '../../stores/chat'
import { changeLine, checkpointTime, triggerLabel } from './labels'
import { background } from '../../lib/background'

/** The first line of the user message a checkpoint precedes (when the transcript is loaded). */
function useMessageSnippet(sessionId: string, checkpoint: Checkpoint): string {
  return useChat((s) => {
    if (checkpoint.trigger !== 'message' || !checkpoint.messageId) return ''
    const part = s.transcripts[sessionId]?.parts[checkpoint.messageId]?.find((p) => p.type === 'text')
    if (part?.type !== 'text') return ''
    // A review note sent ahead of the message is not what the user wrote.
    const end = part.text.indexOf(REVIEW_NOTE_END)
    const own = end >= 0 ? part.text.slice(end + REVIEW_NOTE_END.length) : part.text
    return own.split('\n').find((l) => l.trim()) ?? ''
  })
}

function Row({ sessionId, checkpoint, active, onFocus }: { sessionId: string; checkpoint: Checkpoint; active: boolean; onFocus(): void }) {
  const chat = useChatController()
  const snippet = useMessageSnippet(sessionId, checkpoint)
  return (
    <li
      className={`checkpoint${active ? ' active' : ''}`}
      role="option"
      aria-selected={active}
      onClick={onFocus}
      onDoubleClick={() => chat.checkpoints.open({ kind: 'checkpoint', sessionId, checkpointId: checkpoint.id, against: 'working' })}
      data-testid="checkpoint"
      data-trigger={checkpoint.trigger}
      data-checkpoint-id={checkpoint.id}
    >
      <div className="checkpoint-line">
        <span className={`checkpoint-trigger trigger-${checkpoint.trigger}`}>{triggerLabel(checkpoint.trigger)}</span>
        <span className="muted checkpoint-time">{checkpointTime(checkpoint)}</span>
        <span className="muted checkpoint-changes">{changeLine(checkpoint)}</span>
      </div>
      {snippet && <div className="checkpoint-snippet">“{snippet}”</div>}
      {checkpoint.summary.untracked.length > 0 && (
        <div className="warn-text checkpoint-untracked">{checkpoint.summary.untracked.length} large file(s) not kept</div>
      )}
      {active && (
        <div className="checkpoint-actions">
          <button type="button" className="small" onClick={() => chat.checkpoints.open({ kind: 'checkpoint', sessionId, checkpointId: checkpoint.id, against: 'working' })} data-testid="checkpoint-diff">
            Diff
          </button>
          <button type="button" className="small" onClick={() => chat.checkpoints.openRestore(checkpoint.id)} data-testid="checkpoint-restore">
            Restore…
          </button>
          <button type="button" className="small ghost" onClick={() => background('chat.fork', chat.fork(checkpoint.id, false))} title="A new session with the conversation up to here" data-testid="checkpoint-fork">
            Fork from here
          </button>
        </div>
      )}
    </li>
  )
}

/**
 * The session's checkpoints, newest first: what triggered each and what it
 * changed. Enter shows the diff, R restores, F forks.
 */
export function Timeline({ sessionId }: { sessionId: string }) {
  const chat = useChatController()
  const list = useCheckpoints((s) => s.bySession[sessionId])
  const [cursor, setCursor] = useState(0)
  useEffect(() => chat.checkpoints.ensure(sessionId), [chat, sessionId])
  const rows = list ? [...list].reverse() : []
  const current = rows[Math.min(cursor, rows.length - 1)]
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'ArrowDown') setCursor((c) => Math.min(rows.length - 1, c + 1))
    else if (e.key === 'ArrowUp') setCursor((c) => Math.max(0, c - 1))
    else if (e.key === 'Enter' && current) chat.checkpoints.open({ kind: 'checkpoint', sessionId, checkpointId: current.id, against: 'working' })
    else if ((e.key === 'r' || e.key === 'R') && current) chat.checkpoints.openRestore(current.id)
    else if ((e.key === 'f' || e.key === 'F') && current) background('chat.fork', chat.fork(current.id, false))
    else if (e.key === 'Escape') chat.checkpoints.setShowTimeline(false)
    else return
    e.preventDefault()
  }
  return (
    <div className="timeline" data-testid="timeline">
      {!list ? (
        <div className="muted pad">Loading checkpoints…</div>
      ) : rows.length === 0 ? (
        <div className="muted pad">No checkpoints yet: one is taken before each message and after each step that changes files.</div>
      ) : (
        <ul className="checkpoint-list" role="listbox" aria-label="Checkpoints" tabIndex={0} onKeyDown={onKeyDown} autoFocus>
          {rows.map((c, i) => (
            <Row key={c.id} sessionId={sessionId} checkpoint={c} active={c.id === current?.id} onFocus={() => setCursor(i)} />
          ))}
        </ul>
      )}
    </div>
  )
}
