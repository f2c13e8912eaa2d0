import type * as Monaco from 'monaco-editor'

export type MonacoApi = typeof Monaco

let loading: Promise<MonacoApi> | null = null

/** Monaco is large: it loads on first use, not with the app shell. */
export function loadMonaco(): Promise<MonacoApi> {
  loading ??= import('./monaco-setup').then((m) => m.monaco)
  return loading
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
