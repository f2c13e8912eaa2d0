import { useEffect, useRef } from 'react'
import type { PanelImperativeHandle, PanelSize } from 'react-resizable-panels'
import { useStore } from 'zustand'
import { useProjectStore } from '../../stores/project'
import { useShownFolderStore } from '../../stores/shown-folder'
import { useWorkspace } from '../../stores/workspace'
import { PreviewPane } from './PreviewPane'
import { setPreviewOpen } from './preview-panel-state'
import { previewFor } from './preview-store'

/** Keeps the tab's preview panel open or collapsed with the pane's flag, both ways (toggle and drag). */
export function usePreviewPanel(openSize: string): { ref: React.RefObject<PanelImperativeHandle | null>; onResize(size: PanelSize): void } {
  const tab = useProjectStore()
  const { bridge, projectId } = tab.getState()
  const folder = useShownFolderStore()
  const open = useStore(previewFor(bridge, projectId), (s) => s.open)
  const ref = useRef<PanelImperativeHandle | null>(null)
  useEffect(() => {
    const panel = ref.current
    if (!panel) return
    if (open && panel.isCollapsed()) {
      panel.expand()
      // Expanding gives back the size it had, or its minimum the first time: too narrow for a page.
      if (panel.getSize().asPercentage < parseFloat(openSize) * 0.75) panel.resize(openSize)
    }
    if (!open && !panel.isCollapsed()) panel.collapse()
  }, [open, openSize])
  const onResize = (size: PanelSize): void => {
    const shown = size.asPercentage > 0.5
    if (previewFor(bridge, projectId).getState().open !== shown) setPreviewOpen(bridge, projectId, folder.getState().projectId, shown)
  }
  return { ref, onResize }
}

/** The tab's Preview panel: the pane of the folder on screen (each worktree keeps its own page). */
export function PreviewPanel() {
  const tab = useProjectStore()
  const { bridge, projectId: tabId } = tab.getState()
  const folderId = useShownFolderStore().getState().projectId
  const transport = useWorkspace((s) => s.info?.transport)
  const open = useStore(previewFor(bridge, tabId), (s) => s.open)
  if (!open) return null
  return (
    <PreviewPane
      key={folderId}
      bridge={bridge}
      projectId={folderId}
      store={previewFor(bridge, folderId)}
      surface={transport === 'electron' ? 'view' : 'frame'}
      onClose={() => setPreviewOpen(bridge, tabId, folderId, false)}
    />
  )
}
