import { useStore } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import { activeFolderStore } from '../../stores/shown-folder'
import { formatShortcut } from '../../lib/keys'
import { togglePreview } from './commands'
import { previewFor } from './preview-store'

/** The status bar's way to show or hide the active tab's Preview pane (also Mod+Alt+P). */
export function PreviewButton({ bridge, projectId }: { bridge: HotaruBridge; projectId: string }) {
  const open = useStore(previewFor(bridge, projectId), (s) => s.open)
  return (
    <button
      type="button"
      className="ghost small statusbar-button"
      aria-pressed={open}
      data-testid="preview-toggle"
      title={`Toggle the Preview pane (${formatShortcut('Mod+Alt+P')})`}
      onClick={() => togglePreview({ bridge, tabId: projectId, folderId: activeFolderStore()?.getState().projectId ?? projectId })}
    >
      Preview
    </button>
  )
}
