import { useEffect, useRef, useState } from 'react'
import { existingProjectStore } from '../../stores/project'
import { useWorkspace, workspace } from '../../stores/workspace'
import { openFile } from '../editor'
import { background } from '../../lib/background'
import { dropPathRequest } from './drop-suggestion'
import { hasImageFiles, IMAGE_DROP_EVENT, imageDropTarget } from '../../lib/image-drop'

const hasFiles = (e: DragEvent): boolean => e.dataTransfer?.types.includes('Files') ?? false

async function openDroppedPaths(paths: string[]): Promise<void> {
  for (const path of paths) {
    const opened = await workspace.openDropped(path)
    if (!opened?.file) continue
    const store = existingProjectStore(opened.project.id)
    if (store) openFile(store, opened.file)
  }
}

/**
 * Drop a folder anywhere on the window to open it as a project (a file opens in
 * the project that holds it). The desktop app gets real paths from the preload;
 * a browser never reveals where a dropped folder lives, so there we ask for it,
 * offering the recent project of the same name. Images dropped on a composer are attached to the message instead.
 */
export function DropOverlay() {
  const [dragging, setDragging] = useState(false)
  const depth = useRef(0)

  useEffect(() => {
    const enter = (e: DragEvent): void => {
      if (!hasFiles(e)) return
      e.preventDefault()
      depth.current++
      setDragging(true)
    }
    const over = (e: DragEvent): void => {
      if (!hasFiles(e)) return
      e.preventDefault()
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy'
      // Images over a composer are attached there: no "open a folder" overlay on top of it.
      setDragging(!(hasImageFiles(e) && imageDropTarget(e)))
    }
    const leave = (e: DragEvent): void => {
      if (!hasFiles(e)) return
      depth.current = Math.max(0, depth.current - 1)
      if (depth.current === 0) setDragging(false)
    }
    const drop = (e: DragEvent): void => {
      if (!hasFiles(e)) return
      // Ours: neither the editor nor the browser (which would navigate to the file) gets it.
      e.preventDefault()
      e.stopPropagation()
      depth.current = 0
      setDragging(false)
      const files = [...(e.dataTransfer?.files ?? [])]
      const composer = hasImageFiles(e) ? imageDropTarget(e) : undefined
      if (composer) {
        composer.dispatchEvent(new CustomEvent(IMAGE_DROP_EVENT, { detail: files.filter((f) => f.type.startsWith('image/')) }))
        return
      }
      const desktop = window.hotaruDesktop
      if (desktop) {
        background('openDroppedPaths', openDroppedPaths(files.map((f) => desktop.pathForFile(f)).filter(Boolean)))
        return
      }
      const item = e.dataTransfer?.items[0]
      const entry = item?.webkitGetAsEntry?.() ?? null
      const name = entry?.name ?? files[0]?.name ?? ''
      workspace.askForPath(dropPathRequest(useWorkspace.getState().recent, name, entry?.isDirectory === false))
    }
    window.addEventListener('dragenter', enter, true)
    window.addEventListener('dragover', over, true)
    window.addEventListener('dragleave', leave, true)
    window.addEventListener('drop', drop, true)
    return () => {
      window.removeEventListener('dragenter', enter, true)
      window.removeEventListener('dragover', over, true)
      window.removeEventListener('dragleave', leave, true)
      window.removeEventListener('drop', drop, true)
    }
  }, [])

  if (!dragging) return null
  return (
    <div className="drop-overlay" data-testid="drop-overlay">
      <div className="drop-card">Drop a folder to open it as a project</div>
    </div>
  )
}
