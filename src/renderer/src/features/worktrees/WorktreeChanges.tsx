import { useEffect, useState } from 'react'
import type { WorktreeDiff, WorktreeFileChange } from '@shared/schema/worktree'
import { worktreesFor } from '../../stores/chat'
import { useWorkspace } from '../../stores/workspace'
import { errorMessage } from '../../ipc'
import { background } from '../../lib/background'
import { showWorktreeView } from './state'
import { WorktreeFileDiff } from './WorktreeFileDiff'
import { FileRow, Overlay } from './Overlay'

/** A worktree's changes against its base (committed and uncommitted): the files, and the selected one's diff. */
export function WorktreeChanges({ tabId, name }: { tabId: string; name: string }) {
  const bridge = useWorkspace((s) => s.bridge)
  const [diff, setDiff] = useState<WorktreeDiff | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [selected, setSelected] = useState<string | null>(null)
  useEffect(() => {
    if (!bridge) return
    let live = true
    background('worktree.diff', worktreesFor(bridge, tabId).diff(name).then(
      (d) => live && setDiff(d),
      (e: unknown) => live && setError(errorMessage(e)),
    ))
    return () => {
      live = false
    }
  }, [bridge, tabId, name])
  const files: WorktreeFileChange[] = diff?.files ?? []
  const current = files.find((f) => f.path === selected) ?? files[0]
  return (
    <Overlay
      title={`Changes in worktree ${name}`}
      testId="worktree-changes"
      actions={
        <button type="button" className="small primary" onClick={() => showWorktreeView({ kind: 'merge', tabId, name })}>
          Merge…
        </button>
      }
    >
      {error ? (
        <div className="error pad">{error}</div>
      ) : !diff ? (
        <div className="muted pad">Comparing with the base…</div>
      ) : files.length === 0 ? (
        <div className="muted pad" data-testid="changes-empty">
          No changes against the base.
        </div>
      ) : (
        <>
          <ul className="changes-files" role="listbox" aria-label="Changed files">
            {files.map((f) => (
              <FileRow key={f.path} change={f} selected={f === current} onSelect={() => setSelected(f.path)} />
            ))}
          </ul>
          {current && <WorktreeFileDiff key={current.path} tabId={tabId} name={name} path={current.path} side="worktree" {...(current.from !== undefined ? { from: current.from } : {})} />}
        </>
      )}
    </Overlay>
  )
}
