import { useProject, useProjectStore } from '../../stores/project'
import { documentsFor } from './documents'
import { background } from '../../lib/background'

/** Notices above the editor: a conflict with the disk, a deleted file, a partly loaded file. */
export function DocBanner({ path }: { path: string }) {
  const store = useProjectStore()
  const conflict = useProject((s) => s.docs[path]?.conflict ?? null)
  const truncated = useProject((s) => s.docs[path]?.truncated ?? false)
  const docs = documentsFor(store)
  if (conflict?.kind === 'changed') {
    return (
      <div className="doc-banner warn" role="alert" data-testid="conflict-banner">
        <span>This file changed on disk and you have unsaved changes.</span>
        <button type="button" className="small" onClick={() => background('docs.reload', docs.reload(path))}>
          Reload from disk
        </button>
        <button type="button" className="small" onClick={() => background('docs.compareWithDisk', docs.compareWithDisk(path))}>
          Compare
        </button>
        <button type="button" className="small" onClick={() => background('docs.save', docs.save(path, true))}>
          Keep mine (overwrite)
        </button>
      </div>
    )
  }
  if (conflict?.kind === 'deleted') {
    return (
      <div className="doc-banner warn" role="alert" data-testid="deleted-banner">
        <span>This file was deleted on disk.</span>
        <button type="button" className="small" onClick={() => background('docs.save', docs.save(path, true))}>
          Save to recreate it
        </button>
        <button type="button" className="small" onClick={() => store.getState().removeOpenFile(path)}>
          Close
        </button>
      </div>
    )
  }
  if (truncated) {
    return (
      <div className="doc-banner" data-testid="truncated-banner">
        <span>This file is large: only its beginning is shown, read-only.</span>
      </div>
    )
  }
  return null
}
