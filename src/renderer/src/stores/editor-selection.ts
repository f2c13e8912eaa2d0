/** A selection in the code editor, as the agent gets it. */
export interface EditorSelection {
  path: string
  /** 1-based, inclusive. */
  startLine: number
  endLine: number
  text: string
}

/** What the focused code editor offers to the app's shortcuts (Ctrl+L, Ctrl+K): its selection and its inline prompt. */
export interface EditorSelectionSource {
  /** The non-empty selection of the editor, when it has focus. */
  selection(): EditorSelection | null
  /** Opens the inline edit prompt at the selection. */
  inlineEdit(): void
}

const sources = new Set<EditorSelectionSource>()

export function addSelectionSource(source: EditorSelectionSource): () => void {
  sources.add(source)
  return () => sources.delete(source)
}

/** The focused editor's selection and the source it came from, if an editor has focus with text selected. */
export function focusedSelection(): { selection: EditorSelection; source: EditorSelectionSource } | null {
  for (const source of sources) {
    const selection = source.selection()
    if (selection) return { selection, source }
  }
  return null
}
