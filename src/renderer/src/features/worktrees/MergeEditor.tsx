import { useEffect, useRef, useState } from 'react'
import type * as Monaco from 'monaco-editor'
import type { MergeFile } from '@shared/schema/worktree'
import { worktreesFor } from '../../stores/chat'
import { useWorkspace } from '../../stores/workspace'
import { errorMessage } from '../../ipc'
import { background } from '../../lib/background'
import { loadMonaco, type MonacoApi } from '../editor'
import { applyChoice, conflictsOf, initialResult, sideRanges, unresolved, type Choice } from './merge-model'
import { setResolution, showWorktreeView, useMergeResolutions, resolutionsKey } from './state'
import { Overlay } from './Overlay'

let nextMergeEditorId = 1

const PANE_OPTIONS: Monaco.editor.IStandaloneEditorConstructionOptions = {
  automaticLayout: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 13,
  lineNumbersMinChars: 3,
  renderWhitespace: 'none',
}

/** One pane of the merge editor: a Monaco editor on its own model, conflict lines highlighted. */
function Pane({
  monaco,
  id,
  side,
  path,
  text,
  ranges,
  readOnly,
  onChange,
  onEditor,
}: {
  monaco: MonacoApi
  id: number
  side: 'incoming' | 'current' | 'result'
  path: string
  text: string
  ranges: Array<{ start: number; end: number } | null>
  readOnly: boolean
  onChange?(text: string): void
  onEditor?(editor: Monaco.editor.IStandaloneCodeEditor | null): void
}) {
  const host = useRef<HTMLDivElement>(null)
  const editor = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null)
  const decorations = useRef<Monaco.editor.IEditorDecorationsCollection | null>(null)
  const changed = useRef(onChange)
  useEffect(() => {
    changed.current = onChange
  }, [onChange])

  useEffect(() => {
    if (!host.current) return
    const uri = monaco.Uri.from({ scheme: 'inmemory', path: `/merge-${id}/${side}/${path.replace(/^\/+/, '')}` })
    const model = monaco.editor.createModel(text, undefined, uri)
    const created = monaco.editor.create(host.current, { ...PANE_OPTIONS, model, readOnly, domReadOnly: readOnly, ariaLabel: `${side} version of ${path}` })
    editor.current = created
    decorations.current = created.createDecorationsCollection()
    const listener = model.onDidChangeContent(() => changed.current?.(model.getValue()))
    onEditor?.(created)
    return () => {
      onEditor?.(null)
      listener.dispose()
      created.dispose()
      model.dispose()
      editor.current = null
    }
    // The model is made once per pane; text changes arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [monaco, id, side, path, readOnly])

  useEffect(() => {
    const model = editor.current?.getModel()
    if (model && model.getValue() !== text) model.pushEditOperations([], [{ range: model.getFullModelRange(), text }], () => null)
  }, [text])

  useEffect(() => {
    decorations.current?.set(
      ranges.flatMap((r) =>
        r ? [{ range: new monaco.Range(r.start, 1, r.end, 1), options: { isWholeLine: true, className: `merge-line-${side}`, linesDecorationsClassName: `merge-gutter-${side}` } }] : [],
      ),
    )
  }, [monaco, ranges, side])

  return <div ref={host} className="merge-pane-editor" data-testid={`merge-pane-${side}`} />
}

/** Line ranges of the unresolved conflicts' marker blocks in the result, for highlighting and "next conflict". */
function resultRanges(result: string, count: number): Array<{ start: number; end: number } | null> {
  const lines = result.split('\n')
  return Array.from({ length: count }, (_, i) => {
    const start = lines.findIndex((line) => line === `<<<<<<< main tree (conflict ${i + 1})`)
    if (start < 0) return null
    const end = lines.findIndex((line, j) => j > start && line === '>>>>>>> worktree')
    return { start: start + 1, end: (end < 0 ? start : end) + 1 }
  })
}

/**
 * The three-way merge editor for one conflicting file, as in VS Code: the worktree's version (incoming) and
 * the main tree's (current) side by side above, the result below. Changes that do not overlap are already
 * merged into the result; each conflict is a marked block there with its own choice (incoming, current, both,
 * base) and the result stays editable. "Use this result" keeps it for the merge once no conflict is left.
 */
export function MergeEditor({ tabId, name, path }: { tabId: string; name: string; path: string }) {
  const bridge = useWorkspace((s) => s.bridge)
  const saved = useMergeResolutions((s) => s.byWorktree[resolutionsKey(tabId, name)]?.[path])
  const [file, setFile] = useState<MergeFile | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [monaco, setMonaco] = useState<MonacoApi | null>(null)
  const [result, setResult] = useState<string | null>(null)
  const [id] = useState(() => nextMergeEditorId++)
  const resultEditor = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null)
  const back = (): void => showWorktreeView({ kind: 'merge', tabId, name })

  useEffect(() => {
    let live = true
    loadMonaco().then(
      (m) => live && setMonaco(m),
      (e: unknown) => live && setError(`The editor did not load: ${errorMessage(e)}`),
    )
    return () => {
      live = false
    }
  }, [])
  useEffect(() => {
    if (!bridge) return
    let live = true
    background('worktree.mergeFile', worktreesFor(bridge, tabId).mergeFile(name, path).then(
      (next) => {
        if (!live) return
        setFile(next)
        // Back from the merge preview: the result as the user left it.
        setResult(saved && 'content' in saved ? saved.content : initialResult(next.regions))
      },
      (e: unknown) => live && setError(errorMessage(e)),
    ))
    return () => {
      live = false
    }
    // Loaded once per file: a saved resolution changing later must not reset the result being edited.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bridge, tabId, name, path])

  const conflicts = file ? conflictsOf(file.regions) : []
  const open = result === null ? [] : unresolved(result, conflicts.length)
  const choose = (index: number, choice: Choice): void => {
    const region = conflicts[index]
    if (result === null || !region) return
    const next = applyChoice(result, region, index, choice)
    if (next !== null) setResult(next)
  }
  const reveal = (index: number): void => {
    const range = result === null ? null : resultRanges(result, conflicts.length)[index]
    if (!range || !resultEditor.current) return
    resultEditor.current.revealLineInCenter(range.start)
    resultEditor.current.setPosition({ lineNumber: range.start, column: 1 })
    resultEditor.current.focus()
  }
  const keep = (): void => {
    if (result === null) return
    setResolution(tabId, name, path, { path, content: result })
    back()
  }

  const actions = (
    <span className="merge-actions">
      <span className="muted small" role="status" data-testid="merge-editor-status">
        {open.length === 0 ? 'All conflicts resolved' : `${open.length} of ${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'} left`}
      </span>
      <button type="button" className="small primary" disabled={result === null || open.length > 0} onClick={keep}>
        Use this result
      </button>
      <button type="button" className="small" onClick={back}>
        Back to the merge
      </button>
    </span>
  )
  return (
    <Overlay title={`Merge ${path}`} testId="merge-editor" actions={actions} onClose={back}>
      {error ? (
        <div className="error pad" role="alert">
          {error}
        </div>
      ) : !file || !monaco || result === null ? (
        <div className="muted pad">Loading {path}…</div>
      ) : (
        <div className="merge-editor">
          <ol className="merge-conflict-list" aria-label="Conflicts">
            {conflicts.map((_, i) => {
              const pending = open.includes(i)
              return (
                <li key={i} className={`merge-conflict-row${pending ? '' : ' resolved'}`} data-testid="merge-conflict-row" data-resolved={!pending}>
                  <button type="button" className="link small" onClick={() => reveal(i)} disabled={!pending}>
                    Conflict {i + 1}
                  </button>
                  {pending ? (
                    <>
                      <button type="button" className="small" onClick={() => choose(i, 'incoming')}>
                        Accept incoming
                      </button>
                      <button type="button" className="small" onClick={() => choose(i, 'current')}>
                        Accept current
                      </button>
                      <button type="button" className="small" onClick={() => choose(i, 'both')}>
                        Accept both
                      </button>
                      <button type="button" className="small" onClick={() => choose(i, 'base')} title="The text before either change">
                        Base
                      </button>
                    </>
                  ) : (
                    <span className="muted small">resolved</span>
                  )}
                </li>
              )
            })}
          </ol>
          <div className="merge-panes">
            <section className="merge-pane" aria-label="Incoming">
              <div className="merge-pane-head">Incoming: worktree {name}</div>
              <Pane monaco={monaco} id={id} side="incoming" path={path} text={file.incoming} ranges={sideRanges(file.incoming, conflicts, 'incoming')} readOnly />
            </section>
            <section className="merge-pane" aria-label="Current">
              <div className="merge-pane-head">Current: main tree</div>
              <Pane monaco={monaco} id={id} side="current" path={path} text={file.current} ranges={sideRanges(file.current, conflicts, 'current')} readOnly />
            </section>
          </div>
          <section className="merge-pane merge-result" aria-label="Result">
            <div className="merge-pane-head">Result (editable)</div>
            <Pane
              monaco={monaco}
              id={id}
              side="result"
              path={path}
              text={result}
              ranges={resultRanges(result, conflicts.length)}
              readOnly={false}
              onChange={setResult}
              onEditor={(editor) => {
                resultEditor.current = editor
              }}
            />
          </section>
        </div>
      )}
    </Overlay>
  )
}
