import { useEffect, useRef, type KeyboardEvent } from 'react'
import { background } from '../../lib/background'
import type { Checkpoint } from '@shared/schema/checkpoint'
import { useChat, useChatController, useCheckpoints } from '../../stores/chat'
import { checkpointTitle, promptLine } from '@shared/checkpoint-label'
import { Icon } from '../../components/Icon'
import { checkpointTime, fileLines, fileNames, hereId, moveSelection } from './labels'

/** The first line of the user message a checkpoint precedes: kept with it, or (older checkpoints) from the loaded transcript. */
export function useMessageSnippet(sessionId: string, checkpoint: Checkpoint): string {
  return useChat((s) => {
    if (checkpoint.trigger !== 'message' || !checkpoint.messageId) return ''
    if (checkpoint.prompt) return checkpoint.prompt
    const part = s.transcripts[sessionId]?.parts[checkpoint.messageId]?.find((p) => p.type === 'text')
    return part?.type === 'text' ? promptLine(part.text) : ''
  })
}

/**
 * The row's second line. A step's title names its one file; with more, each file and its lines.
 * A restore's undo point names the files the restore changed; other checkpoints what changed since
 * the one before them (the user's own edits between turns).
 */
function rowDetail(checkpoint: Checkpoint): string {
  const files = checkpoint.summary.added + checkpoint.summary.modified + checkpoint.summary.deleted
  if (checkpoint.trigger === 'step') return files > 1 ? fileLines(checkpoint) : ''
  if (files === 0) return ''
  if (checkpoint.trigger === 'restore') return `the restore changed ${fileNames(checkpoint)}`
  return `since the previous checkpoint: ${fileLines(checkpoint)}`
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
  const title = checkpointTitle(checkpoint, snippet)
  const detail = rowDetail(checkpoint)
  return (
    <li
      id={`checkpoint-${checkpoint.id}`}
      className={`checkpoint${active ? ' active' : ''}${here ? ' here' : ''}`}
      role="option"
      aria-selected={active}
      aria-current={here ? 'step' : undefined}
      aria-label={`${title}, ${checkpointTime(checkpoint)}${here ? ', you are here' : ''}`}
      onClick={onFocus}
      onDoubleClick={() => chat.checkpoints.open({ kind: 'checkpoint', sessionId, checkpointId: checkpoint.id, against: 'working' })}
      data-testid="checkpoint"
      data-trigger={checkpoint.trigger}
      data-checkpoint-id={checkpoint.id}
    >
      <div className="checkpoint-line">
        <span className={`checkpoint-title trigger-${checkpoint.trigger}`} title={title} data-testid="checkpoint-title">
          {title}
        </span>
        {here && <span className="checkpoint-here">you are here</span>}
        <span className="muted checkpoint-time">{checkpointTime(checkpoint)}</span>
      </div>
      {detail && (
        <div className="checkpoint-files mono" title={checkpoint.summary.files.map((f) => `${f.status} ${f.path}`).join('\n')}>
          {detail}
        </div>
      )}
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
 * The session's checkpoints, newest first, in a pane above the conversation (which stays in view):
 * what happened at each, in words. ↑/↓ move, Enter shows the diff, R restores, F forks, Esc closes.
 */
export function Timeline({ sessionId }: { sessionId: string }) {
  const chat = useChatController()
  const list = useCheckpoints((s) => s.bySession[sessionId])
  const position = useCheckpoints((s) => s.position)
  const restoredTo = useCheckpoints((s) => s.restoredTo)
  // Selected by id: a row added above (a restore's "Before restore") must not move the selection.
  const selectedId = useCheckpoints((s) => s.selected)
  useEffect(() => chat.checkpoints.ensure(sessionId), [chat, sessionId])
  // Opened, the list takes the focus (React's autoFocus covers form controls only), once its rows are there.
  const listRef = useRef<HTMLUListElement>(null)
  const loaded = list !== undefined && list.length > 0
  useEffect(() => {
    if (loaded) listRef.current?.focus()
  }, [loaded])
  const rows = list ? [...list].reverse() : []
  const here = list ? hereId(list, position, restoredTo) : null
  const current = rows.find((c) => c.id === selectedId) ?? rows.find((c) => c.id === here) ?? rows[0]
  const select = (id: string | null): void => chat.checkpoints.select(id)
  const close = (): void => {
    chat.checkpoints.setShowTimeline(false)
    document.querySelector<HTMLElement>('[data-testid="timeline-toggle"]')?.focus()
  }
  const onKeyDown = (e: KeyboardEvent): void => {
    // Keys that reach the list from its buttons are theirs (Enter on "Restore…" is a click).
    if (e.target !== e.currentTarget && e.key !== 'Escape') return
    if (e.key === 'ArrowDown') select(moveSelection(rows, current?.id ?? null, 1))
    else if (e.key === 'ArrowUp') select(moveSelection(rows, current?.id ?? null, -1))
    else if (e.key === 'Home') select(rows[0]?.id ?? null)
    else if (e.key === 'End') select(rows.at(-1)?.id ?? null)
    else if (e.key === 'Enter' && current) chat.checkpoints.open({ kind: 'checkpoint', sessionId, checkpointId: current.id, against: 'working' })
    else if ((e.key === 'r' || e.key === 'R') && current) chat.checkpoints.openRestore(current.id)
    else if ((e.key === 'f' || e.key === 'F') && current) background('chat.fork', chat.fork(current.id, false))
    else if (e.key === 'Escape') close()
    else return
    e.preventDefault()
  }
  return (
    <section className="timeline" aria-label="Checkpoints" data-testid="timeline">
      <div className="timeline-head">
        <span className="timeline-heading">Checkpoints</span>
        <span className="muted timeline-keys">↑↓ move · Enter diff · R restore · F fork</span>
        <button type="button" className="icon" aria-label="Close checkpoints" title="Close (Esc)" onClick={close} data-testid="timeline-close">
          <Icon name="close" />
        </button>
      </div>
      {!list ? (
        <div className="muted pad">Loading checkpoints…</div>
      ) : rows.length === 0 ? (
        <div className="muted pad">No checkpoints yet: one is taken before each message and after each step that changes files.</div>
      ) : (
        <ul
          className="checkpoint-list"
          role="listbox"
          aria-label="Checkpoints"
          aria-activedescendant={current ? `checkpoint-${current.id}` : undefined}
          tabIndex={0}
          onKeyDown={onKeyDown}
          ref={listRef}
        >
          {rows.map((c) => (
            <Row key={c.id} sessionId={sessionId} checkpoint={c} active={c.id === current?.id} here={c.id === here} onFocus={() => select(c.id)} />
          ))}
        </ul>
      )}
    </section>
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
