import type * as Monaco from 'monaco-editor'

export type MonacoApi = typeof Monaco

let loading: Promise<MonacoApi> | null = null
let setup: typeof import('./monaco-setup') | null = null

/** Monaco is large: it loads on first use, not with the app shell. */
export function loadMonaco(): Promise<MonacoApi> {
  loading ??= import('./monaco-setup').then((m) => {
    setup = m
    return m.monaco
  })
  return loading
}

/**
 * Call before an editor is built and after a diff editor is disposed: keeps Monaco's global hover
 * factory on live services (see `restoreHoverDelegates`). Nothing to do before Monaco loaded.
 */
export function keepHoverServicesLive(): void {
  setup?.restoreHoverDelegates()
}

/** The model URI of a project file; the project id keeps equal paths of two tabs apart. */
export function modelUri(monaco: MonacoApi, projectId: string, path: string): Monaco.Uri {
  return monaco.Uri.from({ scheme: 'file', path: `/${projectId}/${path}` })
}

export const EDITOR_OPTIONS: Monaco.editor.IStandaloneEditorConstructionOptions = {
  automaticLayout: true,
  fontSize: 13,
  lineHeight: 20,
  fontFamily: "ui-monospace, 'SF Mono', 'Cascadia Code', Menlo, Consolas, monospace",
  minimap: { enabled: true, renderCharacters: false, scale: 1 },
  scrollBeyondLastLine: false,
  smoothScrolling: true,
  renderWhitespace: 'selection',
  tabSize: 2,
  fixedOverflowWidgets: true,
  padding: { top: 6 },
}
