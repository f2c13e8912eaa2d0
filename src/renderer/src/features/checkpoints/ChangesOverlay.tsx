import { useCallback, useEffect, useState, type KeyboardEvent } from 'react'
import { createPortal } from 'react-dom'
import type { MethodOutput } from '@shared/ipc'
import type { Checkpoint } from '@shared/schema/checkpoint'
import type { Review, ReviewConflict, ReviewFile } from '@shared/schema/review'
import { errorMessage, unwrap } from '../../ipc'
import { useChatController, useCheckpoints, type ChangesView } from '../../stores/chat'
import { FileReview, type Decide } from './FileReview'
import { checkpointLabel } from './labels'
import { background } from '../../lib/background'
import { fileState, nextOpenFile, reviewProgress } from './review-model'

type Entry = Pick<MethodOutput<'checkpoint', 'diff'>[number], 'path' | 'status' | 'additions' | 'deletions'>

function entryOf(file: ReviewFile): Entry {
  let additions = 0
  let deletions = 0
  for (const h of file.hunks) for (const l of h.lines) {
    if (l.kind === 'add') additions++
    else if (l.kind === 'del') deletions++
  }
  return { path: file.path, status: file.status, additions, deletions }
}

interface ReviewState {
  review: Review | null
  conflicts: ReviewConflict[]
  undoCheckpointId: string | null
  busy: boolean
  error: string | null
}

/** A turn review held by the overlay: loaded from core, every decision made there (and persisted there). */
function useTurnReview(sessionId: string, fromId: string | undefined, toId: string | undefined, enabled: boolean) {
  const chat = useChatController()
  const [state, setState] = useState<ReviewState>({ review: null, conflicts: [], undoCheckpointId: null, busy: false, error: null })
  useEffect(() => {
    if (!enabled || !fromId || !toId) return
    let live = true
    background('chat.bridge.review.get', chat.bridge.review.get({ sessionId, fromId, toId }).then((result) => {
      if (!live) return
      if (result.ok) setState((s) => ({ ...s, review: result.value }))
      else setState((s) => ({ ...s, error: result.error.data.message }))
    }))
    return () => {
      live = false
    }
  }, [chat, sessionId, fromId, toId, enabled])
  const decide = useCallback<Decide>(
    async (action, path, hunk) => {
      if (!fromId || !toId) return
      setState((s) => ({ ...s, busy: true }))
      try {
        const outcome = await unwrap(
          chat.bridge.review.decide({ sessionId, fromId, toId, action, ...(path !== undefined ? { path } : {}), ...(hunk !== undefined ? { hunk } : {}) }),
        )
        setState((s) => ({ review: outcome.review, conflicts: outcome.conflicts, undoCheckpointId: outcome.undoCheckpointId ?? s.undoCheckpointId, busy: false, error: null }))
      } catch (error) {
        setState((s) => ({ ...s, busy: false, error: errorMessage(error) }))
      }
    },
    [chat, sessionId, fromId, toId],
  )
  return { ...state, decide }
}

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
  const [plainEntries, setEntries] = useState<Entry[] | null>(null)
  const [plainError, setError] = useState<string | null>(null)
  const [selectedPath, setSelectedPath] = useState<string | null>(null)
  const fromId = range?.fromId
  const toId = range?.toId
  const reviewing = view.kind === 'turn' && toId !== undefined
  const turn = useTurnReview(view.sessionId, fromId, toId, reviewing)
  const entries = reviewing ? (turn.review?.files.map(entryOf) ?? null) : plainEntries
  const error = reviewing ? turn.error : plainError
  const selected = Math.max(0, entries?.findIndex((e) => e.path === selectedPath) ?? 0)
  const setSelected = (next: number | ((i: number) => number)): void => {
    const index = typeof next === 'function' ? next(selected) : next
    const path = entries?.[index]?.path
    if (path) setSelectedPath(path)
  }
  const fileOf = (path: string): ReviewFile | undefined => turn.review?.files.find((f) => f.path === path)
  const decide: Decide = async (action, path, hunk) => {
    await turn.decide(action, path, hunk)
  }
  // After deciding a whole file, move on to the next one still open.
  const decideFile = async (action: 'accept' | 'reject', path: string): Promise<void> => {
    await turn.decide(action, path)
  }
  // Deciding the last open part of the shown file moves on to the next file still open (not a click on a reviewed one).
  const [seen, setSeen] = useState<Review | null>(null)
  if (turn.review !== seen) {
    setSeen(turn.review)
    const current = selectedPath ?? turn.review?.files[0]?.path
    const before = seen?.files.find((f) => f.path === current)
    const now = turn.review?.files.find((f) => f.path === current)
    if (turn.review && current && before && !before.reviewed && now?.reviewed) setSelectedPath(nextOpenFile(turn.review, current))
  }

  useEffect(() => {
    if (!fromId || reviewing) return
    let live = true
    background('chat.bridge.checkpoint.diff', chat.bridge.checkpoint.diff({ fromId, ...(toId ? { toId } : {}) }).then((result) => {
      if (!live) return
      if (result.ok) setEntries(result.value)
      else setError(result.error.data.message)
    }))
    return () => {
      live = false
    }
  }, [chat, fromId, toId, reviewing])

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
          {reviewing && turn.review && <ReviewHeader review={turn.review} busy={turn.busy} decide={decide} />}
          <button type="button" className="icon changes-close" aria-label="Close" onClick={close} autoFocus>
            ×
          </button>
        </header>
        {reviewing && (turn.conflicts.length > 0 || turn.undoCheckpointId) && (
          <div className="review-status" role={turn.conflicts.length > 0 ? 'alert' : 'status'}>
            {turn.conflicts.map((c) => (
              <div key={`${c.path}:${c.hunk ?? ''}`} className="error">
                {c.path}
                {c.hunk !== undefined ? ` (hunk ${c.hunk + 1})` : ''}: {c.reason}
              </div>
            ))}
            {turn.undoCheckpointId && <div className="muted">Rejected changes were reverted on disk; “Before review” in the timeline undoes it. The agent hears about them with your next message.</div>}
          </div>
        )}
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
                {entries.map((e, i) => {
                  const reviewFile = fileOf(e.path)
                  return (
                  <li
                    key={e.path}
                    role="option"
                    aria-selected={i === selected}
                    aria-label={reviewFile ? `${e.path}, ${fileState(reviewFile)}` : e.path}
                    className={`changes-file${i === selected ? ' active' : ''}${reviewFile?.reviewed ? ' reviewed' : ''}`}
                    onClick={() => setSelected(i)}
                    data-testid="changes-file"
                    data-path={e.path}
                    data-reviewed={reviewFile ? String(reviewFile.reviewed) : undefined}
                  >
                    {reviewFile && (
                      <span className="review-check" aria-hidden title={fileState(reviewFile)}>
                        {reviewFile.reviewed ? '✓' : '○'}
                      </span>
                    )}
                    <span className={`git-letter status-${e.status}`}>{STATUS_LETTER[e.status]}</span>
                    <span className="changes-path" title={e.path}>
                      {e.path}
                    </span>
                    {(e.additions !== undefined || e.deletions !== undefined) && (
                      <span className="changes-counts mono">
                        <span className="add">+{e.additions ?? 0}</span> <span className="del">−{e.deletions ?? 0}</span>
                      </span>
                    )}
                    {reviewFile && !reviewFile.reviewed && (
                      <span className="file-actions">
                        <button type="button" className="icon small" disabled={turn.busy} aria-label={`Accept file ${e.path}`} title="Accept file" onClick={(ev) => { ev.stopPropagation(); background('decideFile', decideFile('accept', e.path)) }}>
                          ✓
                        </button>
                        <button type="button" className="icon small reject" disabled={turn.busy} aria-label={`Reject file ${e.path}`} title={e.status === 'added' ? 'Reject file (deletes it)' : 'Reject file (reverts it)'} onClick={(ev) => { ev.stopPropagation(); background('decideFile', decideFile('reject', e.path)) }}>
                          ✗
                        </button>
                      </span>
                    )}
                  </li>
                  )
                })}
              </ul>
              {entry && (
                <FileReview
                  key={`${fromId}:${toId ?? ''}:${entry.path}`}
                  fromId={range.fromId}
                  toId={range.toId}
                  path={entry.path}
                  {...(reviewing && fileOf(entry.path) ? { review: { file: fileOf(entry.path) as ReviewFile, decide, busy: turn.busy } } : {})}
                />
              )}
            </>
          )}
        </div>
      </div>
    </div>
  )
}

function ReviewHeader({ review, busy, decide }: { review: Review; busy: boolean; decide: Decide }) {
  const { reviewed, total } = reviewProgress(review)
  const open = reviewed < total
  return (
    <span className="review-head">
      <span className="muted" data-testid="review-progress">
        {reviewed} of {total} file{total === 1 ? '' : 's'} reviewed
      </span>
      {open && (
        <>
          <button type="button" className="small" disabled={busy} onClick={() => background('decide', decide('accept'))}>
            Accept all
          </button>
          <button type="button" className="small reject" disabled={busy} onClick={() => background('decide', decide('reject'))}>
            Reject all
          </button>
        </>
      )}
    </span>
  )
}

/** A turn's or a checkpoint's changes over the whole window (the chat panel is too narrow for diffs). */
export function ChangesOverlay() {
  const view = useCheckpoints((s) => s.view)
  if (!view) return null
  return createPortal(<Changes view={view} />, document.body)
}
