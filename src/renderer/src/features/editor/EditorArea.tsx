import { formatShortcut } from '../../lib/keys'
import { useProject, useProjectStore } from '../../stores/project'
import { CodeEditor, type EditorOverlay } from './CodeEditor'
import { DiffView } from './DiffView'
import { DocBanner } from './DocBanner'
import { EditorTabs } from './EditorTabs'

function EmptyEditor() {
  return (
    <div className="editor-empty muted" data-testid="editor-empty">
      <p>
        Open a file from the tree, or press <kbd>{formatShortcut('Mod+Shift+P')}</kbd> for every action.
      </p>
    </div>
  )
}

/** Tabs of open files over the editor, or the diff being shown. */
export function EditorArea({ overlay }: { overlay?: EditorOverlay }) {
  const store = useProjectStore()
  const activeFile = useProject((s) => s.activeFile)
  const doc = useProject((s) => (s.activeFile ? s.docs[s.activeFile] : undefined))
  const diff = useProject((s) => s.diff)
  const sideBySide = useProject((s) => s.view.diffSideBySide)
  const showEditor = !diff && activeFile !== null && doc?.status === 'ready' && !doc.binary
  return (
    <section className="editor-area" aria-label="Editor">
      <EditorTabs />
      {activeFile && !diff && <DocBanner path={activeFile} />}
      <div className="editor-stack">
        {/* Always mounted: creating a Monaco editor per switch would flicker and lose undo focus. */}
        <div className={`editor-layer${showEditor ? '' : ' hidden'}`}>
          <CodeEditor path={showEditor ? activeFile : null} {...(overlay ? { overlay } : {})} />
        </div>
        {diff && (
          <div className="editor-layer">
            <DiffView
              original={diff.original}
              modified={diff.modified}
              path={diff.path}
              originalLabel={diff.originalLabel}
              modifiedLabel={diff.modifiedLabel}
              sideBySide={sideBySide}
              onSideBySideChange={(value) => store.getState().setView({ diffSideBySide: value })}
            />
          </div>
        )}
        {!diff && !activeFile && <EmptyEditor />}
        {!diff && activeFile && doc?.status === 'loading' && <div className="editor-empty muted">Loading…</div>}
        {!diff && activeFile && doc?.status === 'error' && (
          <div className="editor-empty error" role="alert">
            {doc.error}
          </div>
        )}
        {!diff && activeFile && doc?.status === 'ready' && doc.binary && (
          <div className="editor-empty muted">Binary file ({doc.size.toLocaleString()} bytes) — not shown.</div>
        )}
      </div>
    </section>
  )
}
