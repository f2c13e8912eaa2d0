import { useEffect, useRef, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import type * as Monaco from 'monaco-editor'
import { EDITOR_OPTIONS, keepHoverServicesLive, loadMonaco, type MonacoApi } from './monaco'

/** A strip of UI inside the diff, above a line of the modified side (e.g. a hunk's Accept / Reject). */
export interface DiffZone {
  key: string
  /** 1-based line of the modified side the zone sits above (past the end: below the last line). */
  line: number
  content: ReactNode
}

export interface DiffViewProps {
  original: string
  modified: string
  /** File path (any form): picks the language by extension. */
  path?: string
  /** Overrides the language picked from `path`. */
  language?: string
  sideBySide?: boolean
  onSideBySideChange?(sideBySide: boolean): void
  originalLabel?: string
  modifiedLabel?: string
  /** The right-hand side is editable when false; edits are reported through onModifiedChange. */
  readOnly?: boolean
  onModifiedChange?(text: string): void
  /** Fixed height (e.g. several diffs stacked in a chat turn); fills its parent when omitted. */
  height?: number
  /** Inline widgets in the modified side, as view zones (they move with the text and scroll with it). */
  zones?: readonly DiffZone[]
  /** A modified-side line to scroll into view (the focused hunk of a review). */
  revealLine?: number
}

const ZONE_HEIGHT_PX = 28

let nextDiffId = 1

/**
 * A Monaco diff editor, side by side or inline. Reusable wherever two versions
 * of a text are compared: agent edits, whole turns, checkpoints, disk vs editor.
 */
export function DiffView({
  original,
  modified,
  path = 'untitled.txt',
  language,
  sideBySide = true,
  onSideBySideChange,
  originalLabel = 'Before',
  modifiedLabel = 'After',
  readOnly = true,
  onModifiedChange,
  height,
  zones,
  revealLine,
}: DiffViewProps) {
  const host = useRef<HTMLDivElement>(null)
  const diff = useRef<Monaco.editor.IStandaloneDiffEditor | null>(null)
  /** A new or deleted file: one plain editor, every line marked (a diff against an empty side shows a phantom line 1). */
  const single = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null)
  const oneSided: 'added' | 'deleted' | null = original === '' && modified !== '' ? 'added' : modified === '' && original !== '' ? 'deleted' : null
  const models = useRef<{ original: Monaco.editor.ITextModel; modified: Monaco.editor.ITextModel } | null>(null)
  const [monaco, setMonaco] = useState<MonacoApi | null>(null)
  const [changes, setChanges] = useState<number | null>(null)
  /** Creating Monaco's diff editor failed once (it can, while another one is being disposed): tried again a frame later. */
  const [attempt, setAttempt] = useState(0)
  const [zoneHosts, setZoneHosts] = useState<ReadonlyMap<string, HTMLElement>>(new Map())
  const shownChanges = oneSided ? 1 : changes
  const zoneLayout = (zones ?? []).map((z) => `${z.key}@${z.line}`).join(',')
  const onChange = useRef(onModifiedChange)
  useEffect(() => {
    onChange.current = onModifiedChange
  }, [onModifiedChange])

  useEffect(() => {
    let live = true
    loadMonaco().then(
      (m) => live && setMonaco(m),
      (error: unknown) => console.error('[diff] Monaco failed to load', error),
    )
    return () => {
      live = false
    }
  }, [])

  useEffect(() => {
    if (!monaco || !host.current) return
    const id = nextDiffId++
    const uri = (side: string) => monaco.Uri.from({ scheme: 'inmemory', path: `/diff-${id}/${side}/${path.replace(/^\/+/, '')}` })
    const pair = {
      original: monaco.editor.createModel('', language, uri('original')),
      modified: monaco.editor.createModel('', language, uri('modified')),
    }
    keepHoverServicesLive()
    if (oneSided) {
      const model = oneSided === 'added' ? pair.modified : pair.original
      const plain = monaco.editor.create(host.current, { ...EDITOR_OPTIONS, model, readOnly: true, minimap: { enabled: false } })
      const marks = plain.createDecorationsCollection()
      const mark = (): void => {
        const lines = model.getLineCount()
        const last = model.getLineLength(lines) === 0 && lines > 1 ? lines - 1 : lines
        marks.set([{ range: new monaco.Range(1, 1, last, 1), options: { isWholeLine: true, className: `diff-whole-${oneSided}`, linesDecorationsClassName: `diff-gutter-${oneSided}` } }])
      }
      const listener = model.onDidChangeContent(mark)
      mark()
      single.current = plain
      models.current = pair
      return () => {
        listener.dispose()
        plain.dispose()
        pair.original.dispose()
        pair.modified.dispose()
        single.current = null
        models.current = null
      }
    }
    let editor: Monaco.editor.IStandaloneDiffEditor
    try {
      editor = monaco.editor.createDiffEditor(host.current, {
        ...EDITOR_OPTIONS,
        minimap: { enabled: false },
        renderSideBySide: true,
        originalEditable: false,
        readOnly: true,
        useInlineViewWhenSpaceIsLimited: false,
        renderOverviewRuler: true,
      })
    } catch (error) {
      pair.original.dispose()
      pair.modified.dispose()
      host.current.replaceChildren()
      // A second failure is no passing state: the area's error boundary shows it.
      if (attempt > 0) throw error
      console.warn('[diff] the diff view could not be created; trying again:', error)
      const frame = requestAnimationFrame(() => setAttempt((n) => n + 1))
      return () => cancelAnimationFrame(frame)
    }
    editor.setModel(pair)
    const listeners = [
      editor.onDidUpdateDiff(() => setChanges(editor.getLineChanges()?.length ?? 0)),
      pair.modified.onDidChangeContent(() => onChange.current?.(pair.modified.getValue())),
    ]
    diff.current = editor
    models.current = pair
    return () => {
      for (const l of listeners) l.dispose()
      // Detaching first ends the diff view model (and cancels a diff still being computed) before the
      // models go; otherwise the worker finds no models and Monaco throws "no diff result available".
      try {
        editor.setModel(null)
        editor.dispose()
      } catch (error) {
        // The view is going away either way: a failure of Monaco's own teardown must not take the area with it.
        console.warn('[diff] disposing the diff view failed:', error)
      }
      // Its inner editors' instantiation service went with it; Monaco's hover factory may still point there.
      keepHoverServicesLive()
      pair.original.dispose()
      pair.modified.dispose()
      diff.current = null
      models.current = null
    }
  }, [monaco, path, language, oneSided, attempt])

  useEffect(() => {
    const pair = models.current
    if (!pair) return
    if (pair.original.getValue() !== original) pair.original.setValue(original)
    if (pair.modified.getValue() !== modified) pair.modified.setValue(modified)
  }, [original, modified, monaco, path, language, oneSided, attempt])

  // View zones are Monaco's; their content is React, rendered into each zone's node through a portal.
  useEffect(() => {
    const editor = diff.current?.getModifiedEditor() ?? single.current
    if (!editor || zoneLayout === '') {
      setZoneHosts(new Map())
      return
    }
    const hosts = new Map<string, HTMLElement>()
    const ids: string[] = []
    editor.changeViewZones((accessor) => {
      for (const item of zoneLayout.split(',')) {
        const at = item.lastIndexOf('@')
        const key = item.slice(0, at)
        const line = Number(item.slice(at + 1))
        const node = document.createElement('div')
        node.className = 'diff-zone'
        // Clicks on the zone's buttons must not move the editor's cursor or start a selection.
        node.addEventListener('mousedown', (e) => e.stopPropagation())
        hosts.set(key, node)
        ids.push(accessor.addZone({ afterLineNumber: Math.max(0, line - 1), heightInPx: ZONE_HEIGHT_PX, domNode: node }))
      }
    })
    // Monaco hides its view-zone layer from assistive technology; these zones hold real controls.
    const reveal = (): void => {
      for (const node of hosts.values()) node.closest('[aria-hidden="true"]')?.removeAttribute('aria-hidden')
    }
    reveal()
    const frame = requestAnimationFrame(reveal)
    setZoneHosts(hosts)
    return () => {
      cancelAnimationFrame(frame)
      // The editor may be gone already (its effect cleans up first): its zones went with it.
      const live = diff.current?.getModifiedEditor() ?? single.current
      if (live !== editor) return
      editor.changeViewZones((accessor) => {
        for (const id of ids) accessor.removeZone(id)
      })
    }
  }, [zoneLayout, monaco, path, language, original, modified, oneSided])

  useEffect(() => {
    if (revealLine === undefined) return
    const editor = diff.current?.getModifiedEditor() ?? single.current
    editor?.revealLineInCenterIfOutsideViewport(revealLine)
  }, [revealLine, monaco, path, oneSided, attempt])

  useEffect(() => {
    // Inline diffs live in narrow places (tool cards, small windows): long lines wrap instead of being cut.
    diff.current?.updateOptions({ renderSideBySide: sideBySide, readOnly, diffWordWrap: sideBySide ? 'off' : 'on', wordWrap: sideBySide ? 'off' : 'on' })
    single.current?.updateOptions({ wordWrap: sideBySide ? 'off' : 'on' })
  }, [sideBySide, readOnly, monaco, path, language])

  return (
    <div className="diff-view" style={height ? { height } : undefined} data-testid="diff-view">
      <div className="diff-head">
        <span className="diff-label">{originalLabel}</span>
        <span className="diff-arrow" aria-hidden>
          →
        </span>
        <span className="diff-label">{modifiedLabel}</span>
        <span className="muted diff-count">{shownChanges === null ? '' : shownChanges === 1 ? '1 change' : `${shownChanges} changes`}</span>
        {onSideBySideChange && (
          <button
            type="button"
            className="ghost small"
            onClick={() => onSideBySideChange(!sideBySide)}
            aria-pressed={!sideBySide}
            data-testid="diff-toggle"
          >
            {sideBySide ? 'Inline' : 'Side by side'}
          </button>
        )}
      </div>
      <div ref={host} className="diff-body" />
      {zones?.map((z) => {
        const node = zoneHosts.get(z.key)
        return node ? createPortal(z.content, node, z.key) : null
      })}
    </div>
  )
}
