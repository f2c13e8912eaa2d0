import { useEffect, useState } from 'react'
import { useProject } from '../../stores/project'
import { useWorkspace } from '../../stores/workspace'
import { worktreesFor } from '../../stores/chat'
import type { FileVersions } from '../../stores/worktrees'
import { DiffView } from '../editor'
import { errorMessage } from '../../ipc'
import { background } from '../../lib/background'

/** Both versions of a worktree file for the diff editor, loaded once per file and side (`from`: renamed from there). */
export function useWorktreeFile(tabId: string, name: string, path: string, side: 'worktree' | 'main' | 'merged', from?: string): { versions: FileVersions | null; error: string | null } {
  const bridge = useWorkspace((s) => s.bridge)
  const key = `${tabId}\0${name}\0${path}\0${side}\0${from ?? ''}`
  const [state, setState] = useState<{ key: string; versions: FileVersions | null; error: string | null } | null>(null)
  useEffect(() => {
    if (!bridge) return
    let live = true
    background('worktree.file', worktreesFor(bridge, tabId).file(name, path, side, from).then(
      (versions) => live && setState({ key, versions, error: null }),
      (error: unknown) => live && setState({ key, versions: null, error: errorMessage(error) }),
    ))
    return () => {
      live = false
    }
  }, [bridge, tabId, name, path, side, from, key])
  // What was loaded for another file is not shown while this one loads.
  return state?.key === key ? state : { versions: null, error: null }
}

/** One file's change on one side since the worktree's base, in the Monaco diff (reused from the editor); `from`: renamed from there. */
export function WorktreeFileDiff({ tabId, name, path, side, height, from }: { tabId: string; name: string; path: string; side: 'worktree' | 'main' | 'merged'; height?: number; from?: string }) {
  const sideBySide = useProject((s) => s.view.diffSideBySide)
  const setView = useProject((s) => s.setView)
  const { versions, error } = useWorktreeFile(tabId, name, path, side, from)
  if (error) return <div className="error pad">{error}</div>
  if (!versions) return <div className="muted pad">Loading {path}…</div>
  if (versions.binary) return <div className="muted pad">{path} is a binary file.</div>
  const label = side === 'worktree' ? `worktree ${name}` : side === 'merged' ? 'after the merge' : 'main tree'
  return (
    <div className="file-review" data-testid="worktree-file-diff" data-path={path} data-side={side}>
      <div className="file-review-diff">
        <DiffView
          original={versions.old?.text ?? ''}
          modified={versions.new?.text ?? ''}
          path={path}
          sideBySide={sideBySide}
          onSideBySideChange={(value) => setView({ diffSideBySide: value })}
          originalLabel={side === 'merged' ? 'main tree now' : versions.old ? (from !== undefined ? `base: ${from}` : 'base') : '(new file)'}
          modifiedLabel={versions.new ? label : '(deleted)'}
          {...(height !== undefined ? { height } : {})}
        />
      </div>
    </div>
  )
}
