import { useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { baseName, parentOf } from '../../lib/paths'
import { useProject, useProjectStore } from '../../stores/project'
import { closeFile } from './actions'
import { background } from '../../lib/background'
import { FileIcon } from '../../components/FileIcon'
import { Icon } from '../../components/Icon'

const TAB_TYPE = 'application/x-hotaru-file-tab'

/** Open files of the project: click to show, middle-click or × to close, drag to reorder. */
export function EditorTabs() {
  const store = useProjectStore()
  const openFiles = useProject(useShallow((s) => s.openFiles))
  const activeFile = useProject((s) => s.activeFile)
  const diffShown = useProject((s) => s.diff !== null)
  const dirty = useProject(useShallow((s) => s.openFiles.filter((p) => s.docs[p]?.dirty)))
  const [dropIndex, setDropIndex] = useState<number | null>(null)
  // Two open files with the same name show their folder too, as VS Code does.
  const names = openFiles.map(baseName)
  return (
    <div className="editor-tabs" role="tablist" aria-label="Open files" data-testid="editor-tabs">
      {openFiles.map((path, index) => {
        const name = baseName(path)
        const ambiguous = names.filter((n) => n === name).length > 1
        const active = path === activeFile && !diffShown
        const isDirty = dirty.includes(path)
        return (
          <div
            key={path}
            role="tab"
            aria-selected={active}
            tabIndex={active ? 0 : -1}
            title={path}
            data-path={path}
            draggable
            className={`editor-tab${active ? ' active' : ''}${isDirty ? ' dirty' : ''}${dropIndex === index ? ' drop-before' : ''}`}
            onClick={() => store.getState().setActiveFile(path)}
            onAuxClick={(e) => {
              if (e.button === 1) background('closeFile', closeFile(store, path))
            }}
            onDragStart={(e) => {
              e.dataTransfer.setData(TAB_TYPE, path)
              e.dataTransfer.effectAllowed = 'move'
            }}
            onDragOver={(e) => {
              if (!e.dataTransfer.types.includes(TAB_TYPE)) return
              e.preventDefault()
              setDropIndex(index)
            }}
            onDragLeave={() => setDropIndex(null)}
            onDrop={(e) => {
              const dragged = e.dataTransfer.getData(TAB_TYPE)
              setDropIndex(null)
              if (!dragged) return
              e.preventDefault()
              store.getState().moveOpenFile(dragged, index)
            }}
          >
            <FileIcon path={path} />
            <span className="editor-tab-name">{name}</span>
            {ambiguous && <span className="editor-tab-dir">{parentOf(path) || './'}</span>}
            <button
              type="button"
              className="icon tab-close"
              aria-label={isDirty ? `Close ${name} (unsaved changes)` : `Close ${name}`}
              onClick={(e) => {
                e.stopPropagation()
                background('closeFile', closeFile(store, path))
              }}
            >
              <span className="dirty-dot" aria-hidden>
                ●
              </span>
              <span className="close-x" aria-hidden>
                <Icon name="close" />
              </span>
            </button>
          </div>
        )
      })}
      {diffShown && (
        <div role="tab" aria-selected className="editor-tab active diff-tab" data-testid="diff-tab">
          <span className="editor-tab-name">Diff</span>
          <button type="button" className="icon" aria-label="Close diff" onClick={() => store.getState().showDiff(null)}>
            <Icon name="close" />
          </button>
        </div>
      )}
    </div>
  )
}
