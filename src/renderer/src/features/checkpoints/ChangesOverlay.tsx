import { useEffect, useState, type KeyboardEvent } from 'react'
import { createPortal } from 'react-dom'
import type { MethodOutput } from '@shared/ipc'
import type { Checkpoint } from '@shared/schema/checkpoint'
import { useChatController, useCheckpoints, type ChangesView } from '../../stores/chat'
import { FileReview } from './FileReview'
import { checkpointLabel } from './labels'
import { background } from '../../lib/background'

type Entry = MethodOutput<'checkpoint', 'diff'>[number]

const STATUS_LETTER: Record<Entry['status'], string> = { added: 'A', modified: 'M', deleted: 'D' }

/** The two checkpoints a view compares; `toId` absent = the working tree. */
function rangeOf(view: ChangesView, list: readonly Checkpoint[] | undefined): { fromId: string; toId?: string } | null {
  if (view.kind === 'turn') return { fromId: view.fromId, toId: view.toId }
  if (view.against === 'working') return { fromId: view.checkpointId }
  const index = list?.findIndex((c) => c.id === view.checkpointId) ?? -1
  const previous = index > 0 ? list?.[index - 1] : undefined
  return previous ? { fromId: previous.id, toId: view.checkpointId } : null
}

function Changes({ view }: { view: ChangesView }) {
  const chat = useChatController()
  const list = useCheckpoints((s) => s.bySession[view.sessionId])
  const range = rangeOf(view, list)
  const [entries, setEntries] = useState<Entry[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [selected, setSelected] = useState(0)
  const fromId = range?.fromId
  const toId = range?.toId

  useEffect(() => {
    if (!fromId) return
    let live = true
    background('chat.bridge.checkpoint.diff', chat.bridge.checkpoint.diff({ fromId, ...(toId ? { toId } : {}) }).then((result) => {
      if (!live) return
      if (result.ok) setEntries(result.value)
      else setError(result.error.data.message)
    }))
    return () => {
      live = false
    }
  }, [chat, fromId, toId])

  const close = (): void => chat.checkpoints.open(null)
  // Escape closes wherever focus went (a clicked button may have been replaced by text).
  useEffect(() => {
    const onEscape = (e: globalThis.KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      e.preventDefault()
      chat.checkpoints.open(null)
    }
    window.addEventListener('keydown', onEscape)
    return () => window.removeEventListener('keydown', onEscape)
  }, [chat])
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'ArrowDown' && entries) setSelected((i) => Math.min(entries.length - 1, i + 1))
    else if (e.key === 'ArrowUp') setSelected((i) => Math.max(0, i - 1))
    else return
    e.preventDefault()
    e.stopPropagation()
  }
  const checkpoint = view.kind === 'checkpoint' ? list?.find((c) => c.id === view.checkpointId) : undefined
  const title = view.kind === 'turn' ? view.title : checkpoint ? checkpointLabel(checkpoint) : 'Checkpoint'
  const entry = entries?.[selected]

  return (
    <div className="changes-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="changes" role="dialog" aria-modal="true" aria-label={title} onKeyDown={onKeyDown} tabIndex={-1} data-testid="changes-view" data-kind={view.kind}>
        <header className="changes-head">
          <h2>{title}</h2>
          {view.kind === 'checkpoint' && (
            <span className="segmented" role="group" aria-label="Compare with">
              {(['working', 'previous'] as const).map((against) => (
                <button
                  key={against}
                  type="button"
                  className={`small${view.against === against ? ' on' : ''}`}
                  aria-pressed={view.against === against}
                  onClick={() => chat.checkpoints.open({ ...view, against })}
                >
                  {against === 'working' ? 'vs working tree' : 'vs previous checkpoint'}
                </button>
              ))}
            </span>
          )}
          {view.kind === 'turn' && <span className="muted">Reject a hunk to revert it on disk; the agent hears about it with your next message.</span>}
          <button type="button" className="icon changes-close" aria-label="Close" onClick={close} autoFocus>
            ×
          </button>
        </header>
        <div className="changes-body">
          {!range ? (
            <div className="muted pad">This is the session's first checkpoint: nothing before it to compare with.</div>
          ) : error ? (
            <div className="error pad">{error}</div>
          ) : !entries ? (
            <div className="muted pad">Comparing…</div>
          ) : entries.length === 0 ? (
            <div className="muted pad" data-testid="changes-empty">
              No differences.
            </div>
          ) : (
            <>
              <ul className="changes-files" role="listbox" aria-label="Changed files">
                {entries.map((e, i) => (
                  <li
                    key={e.path}
                    role="option"
                    aria-selected={i === selected}
                    className={`changes-file${i === selected ? ' active' : ''}`}
                    onClick={() => setSelected(i)}
                    data-testid="changes-file"
                    data-path={e.path}
                  >
                    <span className={`git-letter status-${e.status}`}>{STATUS_LETTER[e.status]}</span>
                    <span className="changes-path" title={e.path}>
                      {e.path}
                    </span>
                    {(e.additions !== undefined || e.deletions !== undefined) && (
                      <span className="changes-counts mono">
                        <span className="add">+{e.additions ?? 0}</span> <span className="del">−{e.deletions ?? 0}</span>
                      </span>
                    )}
                  </li>
                ))}
              </ul>
              {entry && <FileReview key={`${fromId}:${toId ?? ''}:${entry.path}`} sessionId={view.sessionId} fromId={range.fromId} toId={range.toId} path={entry.path} hunks={view.kind === 'turn'} />}
            </>
          )}
        </div>
      </div>
    </div>
  )
}

/** A turn's or a checkpoint's changes over the whole window (the chat panel is too narrow for diffs). */
export function ChangesOverlay() {
  const view = useCheckpoints((s) => s.view)
  if (!view) return null
  return createPortal(<Changes view={view} />, document.body)
}
