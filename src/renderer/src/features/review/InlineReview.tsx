import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import type * as Monaco from 'monaco-editor'
import type { ReviewFile } from '@shared/schema/review'
import { Icon } from '../../components/Icon'
import { background } from '../../lib/background'
import { formatShortcut } from '../../lib/keys'
import { useChatController } from '../../stores/chat'
import { placeOpenHunks, type PlacedHunk } from './hunk-layout'
import { useLatestTurnReview } from './latest-turn'
import { useReview, type Decide } from './review-store'

type MonacoApi = typeof Monaco

const ACTION_ZONE_PX = 26

interface InlineReviewProps {
  editor: Monaco.editor.IStandaloneCodeEditor
  monaco: MonacoApi
  /** The file shown (project-relative), or null. */
  path: string | null
}

/** The placed hunks whose added lines are still what the file has: a file changed since shows no stale marks. */
function matching(model: Monaco.editor.ITextModel, hunks: readonly PlacedHunk[]): PlacedHunk[] {
  const lines = model.getLineCount()
  return hunks.filter((h) => h.added.every((line, i) => line <= lines && model.getLineContent(line) === h.addedText[i]))
}

/** The open hunk the cursor is in (its added lines, or the line after its removed ones). */
function hunkAtCursor(editor: Monaco.editor.IStandaloneCodeEditor, hunks: readonly PlacedHunk[]): PlacedHunk | undefined {
  const line = editor.getPosition()?.lineNumber
  if (line === undefined) return undefined
  return hunks.find((h) => h.added.includes(line) || h.removed.some((r) => r.beforeLine === line))
}

function HunkBar({ hunk, file, decide, busy }: { hunk: PlacedHunk; file: ReviewFile; decide: Decide; busy: boolean }) {
  const position = file.hunks.findIndex((h) => h.index === hunk.index) + 1
  const name = `change ${position} of ${file.hunks.length}`
  return (
    <div className="inline-hunk-bar" role="group" aria-label={`Proposed ${name}`} data-testid="inline-hunk" data-hunk={hunk.index}>
      <span className="mono muted">
        <span className="add">+{hunk.additions}</span> <span className="del">−{hunk.deletions}</span>
      </span>
      <button type="button" className="small" disabled={busy} aria-label={`Accept ${name}`} title={`Accept (${formatShortcut('Mod+Enter')} with the cursor in it)`} onClick={() => background('review.accept', decide('accept', file.path, hunk.index))}>
        <Icon name="check" /> Accept
      </button>
      <button type="button" className="small reject" disabled={busy} aria-label={`Reject ${name}`} title={`Reject (${formatShortcut('Mod+Backspace')} with the cursor in it)`} onClick={() => background('review.reject', decide('reject', file.path, hunk.index))}>
        <Icon name="close" /> Reject
      </button>
    </div>
  )
}

/**
 * The agent's changes to the file in the editor, shown in place as Cursor does: added
 * lines marked, removed lines as a strip above where they were, Accept / Reject on each
 * block and for the file. Ctrl/Cmd+Enter and Ctrl/Cmd+Backspace decide the block under
 * the cursor, or the whole file when the cursor is in no block. Every decision goes to
 * the turn review in core, the same one the review overlay and `hotaru review` use.
 */
export function InlineReview({ editor, monaco, path }: InlineReviewProps) {
  const chat = useChatController()
  const range = useLatestTurnReview(chat)
  const { review, decide, busy } = useReview(chat, range)
  const file = path ? review?.files.find((f) => f.path === path && !f.wholeFile) : undefined
  const placed = useMemo(() => (file ? placeOpenHunks(file) : []), [file])
  // The model shown and its text change under us (tab switch, reload after a revert): bumped to place again.
  const [version, setVersion] = useState(0)
  useEffect(() => {
    const bump = (): void => setVersion((v) => v + 1)
    const listeners = [editor.onDidChangeModel(bump), editor.onDidChangeModelContent(bump)]
    return () => {
      for (const l of listeners) l.dispose()
    }
  }, [editor])
  const model = editor.getModel()
  const shown = useMemo(() => {
    void version
    return model && file ? matching(model, placed) : []
  }, [model, file, placed, version])
  const [hosts, setHosts] = useState<ReadonlyMap<number, HTMLElement>>(new Map())

  const layout = shown.map((h) => `${h.index}@${h.anchor}:${h.added.join('.')}:${h.removed.map((r) => `${r.beforeLine}x${r.lines.length}`).join('.')}`).join(',')
  useEffect(() => {
    // With nothing shown the zones' hosts are left as they were: nothing renders into them.
    if (shown.length === 0) return
    const marks = editor.createDecorationsCollection(
      shown.flatMap((h) =>
        h.added.map((line) => ({
          range: new monaco.Range(line, 1, line, 1),
          options: { isWholeLine: true, className: 'review-added-line', linesDecorationsClassName: 'review-added-gutter', overviewRuler: { color: '#3fb95099', position: monaco.editor.OverviewRulerLane.Left } },
        })),
      ),
    )
    const made = new Map<number, HTMLElement>()
    const ids: string[] = []
    editor.changeViewZones((accessor) => {
      for (const h of shown) {
        const bar = document.createElement('div')
        bar.className = 'inline-hunk-zone'
        // Clicks on the zone's buttons must not move the cursor or start a selection.
        bar.addEventListener('mousedown', (e) => e.stopPropagation())
        made.set(h.index, bar)
        ids.push(accessor.addZone({ afterLineNumber: Math.max(0, h.anchor - 1), heightInPx: ACTION_ZONE_PX, domNode: bar, ordinal: 0 }))
        for (const r of h.removed) {
          const node = document.createElement('div')
          node.className = 'review-removed'
          node.dataset.testid = 'inline-removed'
          for (const text of r.lines) {
            const row = document.createElement('div')
            row.className = 'review-removed-line'
            row.textContent = text === '' ? ' ' : text
            node.append(row)
          }
          ids.push(accessor.addZone({ afterLineNumber: Math.max(0, r.beforeLine - 1), heightInLines: r.lines.length, domNode: node, ordinal: 1 }))
        }
      }
    })
    // Monaco hides its view-zone layer from assistive technology; these zones hold real controls.
    const reveal = (): void => {
      for (const node of made.values()) node.closest('[aria-hidden="true"]')?.removeAttribute('aria-hidden')
    }
    reveal()
    const frame = requestAnimationFrame(reveal)
    // The portals' targets exist only once Monaco made the zones, here: they reach React this way.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setHosts(made)
    return () => {
      cancelAnimationFrame(frame)
      marks.clear()
      editor.changeViewZones((accessor) => {
        for (const id of ids) accessor.removeZone(id)
      })
    }
    // `layout` stands for `shown`: the zones are rebuilt only when the placement changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editor, monaco, layout])

  // The keys read the latest state through a ref: the actions are registered once per editor.
  const current = useRef({ file, shown, decide })
  useEffect(() => {
    current.current = { file, shown, decide }
  }, [file, shown, decide])
  const open = shown.length > 0
  const [openKey] = useState(() => editor.createContextKey<boolean>('hotaruReviewOpen', false))
  useEffect(() => openKey.set(open), [openKey, open])
  useEffect(() => {
    const act = (action: 'accept' | 'reject'): void => {
      const { file: f, shown: hunks, decide: d } = current.current
      if (!f) return
      const hunk = hunkAtCursor(editor, hunks)
      background(`review.${action}`, d(action, f.path, hunk?.index))
    }
    const actions = [
      editor.addAction({ id: 'hotaru.review.accept', label: 'Accept the Agent’s Change', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter], precondition: 'hotaruReviewOpen && !hotaruProposalOpen', run: () => act('accept') }),
      editor.addAction({ id: 'hotaru.review.reject', label: 'Reject the Agent’s Change', keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Backspace], precondition: 'hotaruReviewOpen && !hotaruProposalOpen', run: () => act('reject') }),
    ]
    return () => {
      for (const a of actions) a.dispose()
    }
  }, [editor, monaco])

  if (!file || shown.length === 0) return null
  return (
    <>
      <div className="review-file-bar" role="group" aria-label={`The agent’s changes to ${file.path}`} data-testid="inline-review" data-path={file.path}>
        <span className="muted">
          {shown.length} change{shown.length === 1 ? '' : 's'} by the agent
        </span>
        <button type="button" className="small" disabled={busy} onClick={() => background('review.accept', decide('accept', file.path))}>
          <Icon name="check-all" /> Accept file
        </button>
        <button type="button" className="small reject" disabled={busy} onClick={() => background('review.reject', decide('reject', file.path))}>
          <Icon name="close-all" /> Reject file
        </button>
      </div>
      {shown.map((h) => {
        const node = hosts.get(h.index)
        return node ? createPortal(<HunkBar hunk={h} file={file} decide={decide} busy={busy} />, node, `h${h.index}`) : null
      })}
    </>
  )
}

/** The editor overlay that shows the agent's changes (see `EditorArea`'s `overlay`). */
export function inlineReviewOverlay(editor: Monaco.editor.IStandaloneCodeEditor, monaco: MonacoApi, path: string | null): ReactNode {
  return <InlineReview editor={editor} monaco={monaco} path={path} />
}
