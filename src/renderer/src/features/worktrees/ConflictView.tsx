import { useState } from 'react'
import { useProject } from '../../stores/project'
import { useWorkspace } from '../../stores/workspace'
import { DiffView } from '../editor'
import { background } from '../../lib/background'
import { showWorktreeView } from './state'
import { useWorktreeFile } from './WorktreeFileDiff'
import { Overlay } from './Overlay'

/**
 * One conflicting file in the Monaco diff: the worktree's version on the left, the main tree's on the
 * right and editable, so the user can carry over what they want and save it into the main tree. Back in
 * the merge preview, "Apply without conflicts" then keeps that file as saved. For a file the worktree renamed
 * whose old path the main tree changed, the right side starts from the main tree's old path (`mainPath`) and is
 * saved under the new one.
 */
export function ConflictView({ tabId, name, path, mainPath = path }: { tabId: string; name: string; path: string; mainPath?: string }) {
  const bridge = useWorkspace((s) => s.bridge)
  const sideBySide = useProject((s) => s.view.diffSideBySide)
  const setView = useProject((s) => s.setView)
  const ours = useWorktreeFile(tabId, name, path, 'worktree')
  const theirs = useWorktreeFile(tabId, name, mainPath, 'main')
  const [edited, setEdited] = useState<string | null>(null)
  const [reset, setReset] = useState(0)
  const [message, setMessage] = useState<string | null>(null)
  const back = (): void => showWorktreeView({ kind: 'merge', tabId, name })
  const save = async (): Promise<void> => {
    if (!bridge || edited === null) return
    const result = await bridge.fs.write({ projectId: tabId, path, content: edited })
    setMessage(result.ok ? `Saved ${path} in the main tree.` : `Not saved: ${result.error.data.message}`)
    if (result.ok) setEdited(null)
  }
  const error = ours.error ?? theirs.error
  const worktreeText = ours.versions?.new?.text ?? ''
  const mainText = theirs.versions?.new?.text ?? ''
  return (
    <Overlay
      title={`Conflict: ${path}`}
      testId="conflict-view"
      onClose={back}
      actions={
        <span className="merge-actions">
          <button
            type="button"
            className="small"
            disabled={!ours.versions}
            onClick={() => {
              setEdited(worktreeText)
              setReset((n) => n + 1)
            }}
          >
            Take the worktree's version
          </button>
          <button type="button" className="small primary" disabled={edited === null} onClick={() => background('saveConflict', save())}>
            Save to the main tree
          </button>
          <button type="button" className="small" onClick={back}>
            Back to the merge
          </button>
        </span>
      }
    >
      {error ? (
        <div className="error pad">{error}</div>
      ) : !ours.versions || !theirs.versions ? (
        <div className="muted pad">Loading {path}…</div>
      ) : (
        <div className="file-review" data-testid="conflict-diff" data-path={path}>
          {message && (
            <div className="muted pad" role="status">
              {message}
            </div>
          )}
          <div className="file-review-diff">
            <DiffView
              key={reset}
              original={worktreeText}
              modified={edited ?? mainText}
              path={path}
              sideBySide={sideBySide}
              onSideBySideChange={(value) => setView({ diffSideBySide: value })}
              originalLabel={`worktree ${name}`}
              modifiedLabel={mainPath === path ? 'main tree (editable)' : `main tree: ${mainPath} (editable, saved as ${path})`}
              readOnly={false}
              onModifiedChange={(text) => setEdited(text)}
            />
          </div>
        </div>
      )}
    </Overlay>
  )
}
