import { useState, type FormEvent } from 'react'
import { Modal } from '../../components/Modal'
import { PathInput } from '../../components/PathInput'
import { useWorkspace, workspace } from '../../stores/workspace'
import { background } from '../../lib/background'

/** "Open folder" where there is no native dialog (the browser UI), and for dropped folders there. */
export function OpenPathDialog() {
  const request = useWorkspace((s) => s.openPath)
  if (!request) return null
  return <OpenPathForm key={request.reason ?? ''} reason={request.reason} initial={request.initial ?? ''} locate={request.locate} />
}

function OpenPathForm({ reason, initial, locate }: { reason?: string; initial: string; locate?: string }) {
  const [path, setPath] = useState(initial)
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    if (!path.trim()) return
    if (locate) await workspace.locateAt(locate, path.trim())
    else await workspace.openFolder(path.trim())
  }
  return (
    <Modal title={locate ? 'Locate Folder' : 'Open Folder'} onCancel={() => workspace.askForPath(null)} testId="open-path-dialog">
      <form onSubmit={(e) => background('submit', submit(e))}>
        <p className="muted">{reason ?? 'Enter the path of a folder on this machine (~ is your home folder).'}</p>
        <PathInput
          className="modal-input mono"
          aria-label="Folder path"
          value={path}
          onChange={setPath}
          placeholder="~/projects/app"
          spellCheck={false}
          autoComplete="off"
          data-testid="open-path-dialog-input"
        />
        <div className="modal-actions">
          <button type="button" onClick={() => workspace.askForPath(null)}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!path.trim()}>
            {locate ? 'Locate' : 'Open'}
          </button>
        </div>
      </form>
    </Modal>
  )
}
