import { useEffect, useState, type KeyboardEvent } from 'react'
import { createPortal } from 'react-dom'
import type { MethodOutput } from '@shared/ipc'
import type { Checkpoint } from '@shared/schema/checkpoint'
import type { Review, ReviewFile } from '@shared/schema/review'
import { liveCounts, reviewEntry, useReview } from '../review'
import { MiddlePath } from '../../components/MiddlePath'
import { useChatController, useCheckpoints, type ChangesView } from '../../stores/chat'
import { FileReview, type Decide } from './FileReview'
import { checkpointLabel } from './labels'
import { background } from '../../lib/background'
import { fileState, nextOpenFile, reviewProgress } from './review-model'
import { Icon } from '../../components/Icon'

type Entry = Pick<MethodOutput<'checkpoint', 'diff'>[number], 'path' | 'status' | 'additions' | 'deletions'>

/** A file's row: its counts leave out the hunks rejected (they are no longer in the file). */
function entryOf(file: ReviewFile): Entry {
  return { path: file.path, status: file.status, ...liveCounts(file) }
}

/** A turn review from the window's shared review state (the editor and the bar above the composer show the same one). */
function useTurnReview(sessionId: string, fromId: string | undefined, toId: string | undefined, enabled: boolean) {
  const chat = useChatController()
  const range = enabled && fromId && toId ? { sessionId, fromId, toId } : null
  const state = useReview(chat, range)
  // Opening the review reads it again: the CLI or another window may have decided since.
  useEffect(() => {
    if (enabled && fromId && toId) reviewEntry(chat, { sessionId, fromId, toId }).reload()
  }, [chat, sessionId, fromId, toId, enabled])
  return state
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
  const checkpoint = view.kind === 'checkpoint' ? list?.find((c) => c.id === view.checkpointId) : undefined
  const title = view.kind === 'turn' ? view.title : checkpoint ? checkpointLabel(checkpoint) : 'Checkpoint'
  const entry = entries?.[selected]
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
  // The hunks on screen in review order (rejected ones are gone from the diff), for the keyboard.
  const stops = (turn.review?.files ?? []).flatMap((f) => f.hunks.filter((h) => h.decision !== 'rejected').map((h) => ({ path: f.path, hunk: h.index, open: h.decision === undefined })))
  const [focus, setFocus] = useState<{ path: string; hunk: number } | null>(null)
  const focusAt = stops.findIndex((h) => h.path === focus?.path && h.hunk === focus.hunk)
  const moveFocus = (step: 1 | -1): void => {
    if (stops.length === 0) return
    const from = focusAt >= 0 ? focusAt : step === 1 ? -1 : stops.length
    const next = stops[(from + step + stops.length) % stops.length]
    if (!next) return
    setFocus({ path: next.path, hunk: next.hunk })
    setSelectedPath(next.path)
  }
  const decideFocused = (action: 'accept' | 'reject'): void => {
    const target = focusAt >= 0 ? stops[focusAt] : stops.find((h) => h.path === entry?.path && h.open)
    if (!target) return
    // A rejected hunk leaves the diff: the focus moves on to the next one still open.
    if (action === 'reject') {
      const after = [...stops.slice(Math.max(0, focusAt) + 1), ...stops.slice(0, Math.max(0, focusAt))].find((h) => h.open && !(h.path === target.path && h.hunk === target.hunk))
      setFocus(after ? { path: after.path, hunk: after.hunk } : null)
      if (after) setSelectedPath(after.path)
    } else setFocus({ path: target.path, hunk: target.hunk })
    background('decideHunk', turn.decide(action, target.path, target.hunk))
  }
  const onKeyDown = (e: KeyboardEvent): void => {
    const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement
    const plain = !e.ctrlKey && !e.metaKey && !e.altKey && !typing
    const mod = (e.ctrlKey || e.metaKey) && !e.altKey
    if (e.key === 'ArrowDown' && !e.altKey && entries) setSelected((i) => Math.min(entries.length - 1, i + 1))
    else if (e.key === 'ArrowUp' && !e.altKey) setSelected((i) => Math.max(0, i - 1))
    else if (reviewing && ((plain && (e.key === 'n' || e.key === 'j')) || (e.key === 'F7' && !e.shiftKey) || (e.altKey && e.key === 'ArrowDown'))) moveFocus(1)
    else if (reviewing && ((plain && (e.key === 'p' || e.key === 'k')) || (e.key === 'F7' && e.shiftKey) || (e.altKey && e.key === 'ArrowUp'))) moveFocus(-1)
    else if (reviewing && !turn.busy && ((plain && e.key === 'a') || (mod && e.key === 'Enter'))) decideFocused('accept')
    else if (reviewing && !turn.busy && ((plain && (e.key === 'r' || e.key === 'x')) || (mod && e.key === 'Backspace'))) decideFocused('reject')
    else return
    e.preventDefault()
    e.stopPropagation()
  }

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
          {reviewing && (
            <span className="muted review-keys" data-testid="review-keys">
              <kbd>N</kbd>/<kbd>P</kbd> next/previous change · <kbd>A</kbd> accept · <kbd>R</kbd> reject
            </span>
          )}
          <button type="button" className="icon changes-close" aria-label="Close" onClick={close} autoFocus>
            <Icon name="close" />
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
                    <span className="changes-path">
                      <MiddlePath path={e.path} />
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
                  {...(reviewing && fileOf(entry.path)
                    ? { review: { file: fileOf(entry.path) as ReviewFile, decide, busy: turn.busy, focused: focus?.path === entry.path ? focus.hunk : null } }
                    : {})}
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
