import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import type * as Monaco from 'monaco-editor'
import { useProject, useProjectStore } from '../../stores/project'
import { documentsFor } from './documents'
import { EDITOR_OPTIONS, keepHoverServicesLive, loadMonaco, type MonacoApi } from './monaco'
import { releaseTabOnEscape } from './tab-escape'

/** What another feature draws into the editor (the agent's changes): given the editor, Monaco and the file shown. */
export type EditorOverlay = (editor: Monaco.editor.IStandaloneCodeEditor, monaco: MonacoApi, path: string | null) => ReactNode

/**
 * The project's single Monaco editor: it stays mounted and swaps models when the
 * active file changes (as VS Code does), keeping each file's cursor and scroll.
 */
export function CodeEditor({ path, overlay }: { path: string | null; overlay?: EditorOverlay }) {
  const store = useProjectStore()
  const wrapper = useRef<HTMLDivElement>(null)
  const host = useRef<HTMLDivElement>(null)
  const editor = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null)
  const shownPath = useRef<string | null>(null)
  const [monaco, setMonaco] = useState<MonacoApi | null>(null)
  const [instance, setInstance] = useState<Monaco.editor.IStandaloneCodeEditor | null>(null)
  const status = useProject((s) => (path ? s.docs[path]?.status : undefined))
  const readOnly = useProject((s) => (path ? (s.docs[path]?.truncated ?? false) : false))

  useEffect(() => {
    let live = true
    loadMonaco().then(
      (m) => live && setMonaco(m),
      (error: unknown) => console.error('[editor] Monaco failed to load', error),
    )
    return () => {
      live = false
    }
  }, [])

  useEffect(() => {
    if (!monaco || !host.current || !wrapper.current) return
    keepHoverServicesLive()
    const created = monaco.editor.create(host.current, { ...EDITOR_OPTIONS, model: null })
    editor.current = created
    setInstance(created)
    const releaseTab = releaseTabOnEscape(created, wrapper.current)
    const docs = documentsFor(store)
    return () => {
      releaseTab()
      setInstance(null)
      if (shownPath.current) docs.viewStates.set(shownPath.current, created.saveViewState())
      shownPath.current = null
      editor.current = null
      created.dispose()
    }
  }, [monaco, store])

  // A reveal (open at a line) applies once the file's model is in the editor.
  const applyReveal = useCallback((): void => {
    const current = editor.current
    const docs = documentsFor(store)
    if (!current || !path || !current.getModel() || current.getModel() !== docs.model(path)) return
    const reveal = docs.takeReveal(path)
    if (!reveal) return
    current.setSelection({ startLineNumber: reveal.line, startColumn: reveal.column, endLineNumber: reveal.line, endColumn: reveal.endColumn })
    current.revealLineInCenter(reveal.line)
    current.focus()
  }, [store, path])
  useEffect(() => documentsFor(store).onReveal(applyReveal), [store, applyReveal])

  useEffect(() => {
    const current = editor.current
    if (!current) return
    const docs = documentsFor(store)
    const model = path ? (docs.model(path) ?? null) : null
    if (current.getModel() === model) return
    if (shownPath.current && current.getModel()) docs.viewStates.set(shownPath.current, current.saveViewState())
    current.setModel(model)
    shownPath.current = model ? path : null
    const viewState = path ? docs.viewStates.get(path) : undefined
    if (model && viewState) current.restoreViewState(viewState)
    applyReveal()
  }, [path, status, monaco, store, applyReveal])

  useEffect(() => {
    editor.current?.updateOptions({ readOnly, domReadOnly: readOnly })
  }, [readOnly, status, monaco])

  return (
    <div ref={wrapper} className="code-editor" data-testid="code-editor" data-path={path ?? ''}>
      <div ref={host} className="code-editor-host" />
      {instance && monaco && overlay?.(instance, monaco, path)}
    </div>
  )
}
