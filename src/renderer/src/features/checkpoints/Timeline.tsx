import { useEffect, useState, type KeyboardEvent } from 'react'
import { background } from '../../lib/background'
import type { Checkpoint } from '@shared/schema/checkpoint'
import { REVIEW_NOTE_END, useChat, useChatController, useCheckpoints } from '../../stores/chat'
import { changeLine, checkpointTime, fileNames, hereId, moveSelection, triggerLabel } from './labels'

/** The first line of the user message a checkpoint precedes (when the transcript is loaded). */
export function useMessageSnippet(sessionId: string, checkpoint: Checkpoint): string {
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

interface RowProps {
  sessionId: string
  checkpoint: Checkpoint
  active: boolean
  here: boolean
  onFocus(): void
}

function Row({ sessionId, checkpoint, active, here, onFocus }: RowProps) {
  const chat = useChatController()
  const snippet = useMessageSnippet(sessionId, checkpoint)
  const names = fileNames(checkpoint)
  return (
    <li
      className={`checkpoint${active ? ' active' : ''}${here ? ' here' : ''}`}
      role="option"
      aria-selected={active}
      aria-current={here ? 'step' : undefined}
      onClick={onFocus}
      onDoubleClick={() => chat.checkpoints.open({ kind: 'checkpoint', sessionId, checkpointId: checkpoint.id, against: 'working' })}
      data-testid="checkpoint"
      data-trigger={checkpoint.trigger}
      data-checkpoint-id={checkpoint.id}
    >
      <div className="checkpoint-line">
        <span className={`checkpoint-trigger trigger-${checkpoint.trigger}`}>{triggerLabel(checkpoint.trigger)}</span>
        <span className="muted checkpoint-time">{checkpointTime(checkpoint)}</span>
        {here && <span className="checkpoint-here">you are here</span>}
        <span className="muted checkpoint-changes">{changeLine(checkpoint)}</span>
      </div>
      {names && (
        <div className="checkpoint-files mono" title={checkpoint.summary.files.map((f) => `${f.status} ${f.path}`).join('\n')}>
          {names}
        </div>
      )}
      {snippet && <div className="checkpoint-snippet">“{snippet}”</div>}
      {checkpoint.scope && (
        <div className="muted checkpoint-scope" title={checkpoint.scope.join('\n')} data-testid="checkpoint-scope">
          holds only {checkpoint.scope.length === 1 ? 'the 1 file' : `the ${checkpoint.scope.length} files`} written during it
        </div>
      )}
      {(checkpoint.summary.untracked.length > 0 || (checkpoint.summary.unreadableFolders?.length ?? 0) > 0) && (
        <div className="warn-text checkpoint-untracked" title={notKeptTitle(checkpoint)}>
          {notKeptText(checkpoint)}
        </div>
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
  const position = useCheckpoints((s) => s.position)
  // Selected by id: a row added above (a restore's "Before restore") must not move the selection.
  const [selectedId, setSelectedId] = useState<string | null>(null)
  useEffect(() => chat.checkpoints.ensure(sessionId), [chat, sessionId])
  const rows = list ? [...list].reverse() : []
  const here = list ? hereId(list, position) : null
  const current = rows.find((c) => c.id === selectedId) ?? rows[0]
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'ArrowDown') setSelectedId(moveSelection(rows, current?.id ?? null, 1))
    else if (e.key === 'ArrowUp') setSelectedId(moveSelection(rows, current?.id ?? null, -1))
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
          {rows.map((c) => (
            <Row key={c.id} sessionId={sessionId} checkpoint={c} active={c.id === current?.id} here={c.id === here} onFocus={() => setSelectedId(c.id)} />
          ))}
        </ul>
      )}
    </div>
  )
}

/** "2 file(s) not kept (1 too large, 1 unreadable), 1 unreadable folder(s)" */
function notKeptText(checkpoint: Checkpoint): string {
  const { untracked, unreadableFolders = [] } = checkpoint.summary
  const unreadable = untracked.filter((u) => u.reason === 'unreadable').length
  const large = untracked.length - unreadable
  const reasons = [large > 0 ? `${large} too large` : '', unreadable > 0 ? `${unreadable} unreadable` : ''].filter(Boolean).join(', ')
  const files = untracked.length > 0 ? `${untracked.length} file(s) not kept (${reasons})` : ''
  const folders = unreadableFolders.length > 0 ? `${unreadableFolders.length} unreadable folder(s)` : ''
  return [files, folders].filter(Boolean).join(', ')
}

function notKeptTitle(checkpoint: Checkpoint): string {
  const { untracked, unreadableFolders = [] } = checkpoint.summary
  return [
    ...untracked.map((u) => `${u.path}: ${u.reason === 'unreadable' ? 'unreadable' : 'too large'}`),
    ...unreadableFolders.map((f) => `${f}/: folder could not be listed`),
  ].join('\n')
}
