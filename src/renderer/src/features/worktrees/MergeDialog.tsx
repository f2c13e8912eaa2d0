import { useEffect, useState } from 'react'
import type { MergeConflict, MergePreview, MergeResolution, MergeResult, WorktreeFileChange } from '@shared/schema/worktree'
import { worktreesFor } from '../../stores/chat'
import { useChatScope } from '../../stores/chat-scope'
import { useWorkspace, workspace } from '../../stores/workspace'
import { errorMessage, IpcError } from '../../ipc'
import { background } from '../../lib/background'
import { clearResolutions, resolutionsKey, setResolution, showWorktreeView, useMergeResolutions } from './state'
import { WorktreeFileDiff } from './WorktreeFileDiff'
import { FileRow, Overlay } from './Overlay'

type Selection = { kind: 'conflict' | 'apply' | 'merged'; path: string } | null

/** How a settled conflict reads in the list. */
function resolutionNote(resolution: MergeResolution | undefined): string {
  if (!resolution) return 'both changed'
  if ('content' in resolution) return 'resolved in the merge editor'
  return resolution.take === 'worktree' ? "resolved: the worktree's version" : 'resolved: your version'
}

/** Settling one conflict: the merge editor for a text file, or taking one whole side. */
function ResolveBar({ tabId, name, conflict, resolution }: { tabId: string; name: string; conflict: MergeConflict; resolution: MergeResolution | undefined }) {
  const { path } = conflict
  const take = (side: 'worktree' | 'main') => setResolution(tabId, name, path, { path, take: side })
  return (
    <div className="merge-resolution" data-testid="merge-resolution">
      {conflict.hunks !== undefined && (
        <>
          <span className="small">
            {conflict.hunks} overlapping change{conflict.hunks === 1 ? '' : 's'}; the rest of the file merges by itself.
          </span>
          <button type="button" className="small primary" onClick={() => showWorktreeView({ kind: 'merge-editor', tabId, name, path })}>
            {resolution && 'content' in resolution ? 'Edit the resolution' : 'Resolve in the merge editor'}
          </button>
        </>
      )}
      <button type="button" className="small" aria-pressed={resolution !== undefined && 'take' in resolution && resolution.take === 'worktree'} onClick={() => take('worktree')}>
        Take the worktree's version
      </button>
      <button type="button" className="small" aria-pressed={resolution !== undefined && 'take' in resolution && resolution.take === 'main'} onClick={() => take('main')}>
        Keep yours
      </button>
      {resolution && (
        <button type="button" className="small link" onClick={() => setResolution(tabId, name, path, null)}>
          Undo the choice
        </button>
      )}
    </div>
  )
}

const ACTION_NOTE = { create: 'new', update: '', delete: 'deleted' } as const

/** What applying a change does, as the list says it. */
function applyNote(action: keyof typeof ACTION_NOTE, change: WorktreeFileChange): string {
  return change.from !== undefined ? '' : ACTION_NOTE[action]
}

/**
 * The conflict's two changes since the base, one above the other: the worktree's and the main tree's (for a
 * file the worktree renamed, the main tree's change at whichever of its paths it changed).
 */
function ConflictSides({ tabId, name, conflict }: { tabId: string; name: string; conflict: MergeConflict }) {
  const { path, worktree, main } = conflict
  const from = worktree.from !== undefined ? { from: worktree.from } : {}
  return (
    <div className="merge-conflict" data-testid="merge-conflict" data-path={path}>
      <div className="merge-side">
        <div className="merge-side-head">{worktree.from !== undefined ? `Worktree ${name} renamed ${worktree.from} → ${path}` : `Worktree ${name} changed it`}</div>
        <WorktreeFileDiff tabId={tabId} name={name} path={path} side="worktree" height={240} {...from} />
      </div>
      <div className="merge-side">
        <div className="merge-side-head">
          The main tree changed {main.path === path ? 'it' : main.path} since the base (you or another session)
        </div>
        <WorktreeFileDiff tabId={tabId} name={name} path={main.path} side="main" height={240} />
      </div>
      <button type="button" className="small" onClick={() => showWorktreeView({ kind: 'conflict', tabId, name, path, ...(main.path !== path ? { mainPath: main.path } : {}) })}>
        Open in the diff view
      </button>
    </div>
  )
}

function Outcome({ result, onUndo, undone }: { result: MergeResult; onUndo(): void; undone: boolean }) {
  return (
    <div className="merge-outcome pad" role="status" data-testid="merge-result">
      <p>
        Merged: {result.written} file{result.written === 1 ? '' : 's'} written{result.merged ? ` (${result.merged} combined with your changes)` : ''}, {result.deleted} deleted
        {result.renamed ? ` (${result.renamed} renamed)` : ''}
        {result.skipped.length > 0 ? `; ${result.skipped.length} conflicting file${result.skipped.length === 1 ? '' : 's'} left as you have ${result.skipped.length === 1 ? 'it' : 'them'} (${result.skipped.join(', ')})` : ''}.
      </p>
      {result.branch && (
        <p className="muted">
          The branch <code>{result.branch}</code> is kept: merge or open a pull request from it with git as usual.
        </p>
      )}
      {result.undoCheckpointId &&
        (undone ? (
          <p className="muted">The merge was undone: the main tree is back as it was.</p>
        ) : (
          <button type="button" className="small" onClick={onUndo}>
            Undo merge
          </button>
        ))}
    </div>
  )
}

/**
 * The merge preview of a worktree: conflicts first (both changes), then what would be applied. Nothing is
 * written until the user picks: apply all, apply without the conflicting files, or keep the branch.
 */
export function MergeDialog({ tabId, name }: { tabId: string; name: string }) {
  const bridge = useWorkspace((s) => s.bridge)
  const worktree = useChatScope((s) => s.worktrees[tabId]?.find((w) => w.name === name))
  const [preview, setPreview] = useState<MergePreview | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [selection, setSelection] = useState<Selection>(null)
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<MergeResult | null>(null)
  const [undone, setUndone] = useState(false)
  const resolutions = useMergeResolutions((s) => s.byWorktree[resolutionsKey(tabId, name)])

  // Core refuses to merge under a running turn (its files may still change): say so before the click, and
  // compute the preview again when the turn has ended.
  const running = worktree?.status === 'running'
  /** Bumped to compute the preview again (after a refused merge: the main tree changed meanwhile). */
  const [round, setRound] = useState(0)
  useEffect(() => {
    if (!bridge) return
    let live = true
    background('previewMerge', worktreesFor(bridge, tabId).previewMerge(name).then(
      (next) => {
        if (!live) return
        setError(null)
        setPreview(next)
        // Keep the file the user looked at (back from the merge editor), else the first conflict.
        setSelection((current) => {
          const still = current && (current.kind === 'conflict' ? next.conflicts : current.kind === 'merged' ? next.merged : next.apply).some((f) => f.path === current.path)
          if (still) return current
          const first = next.conflicts[0]?.path ?? next.merged[0]?.path ?? next.apply[0]?.path
          const kind = next.conflicts.length > 0 ? 'conflict' : next.merged.length > 0 ? 'merged' : 'apply'
          return first ? { kind, path: first } : null
        })
      },
      (e: unknown) => live && setError(errorMessage(e)),
    ))
    return () => {
      live = false
    }
  }, [bridge, tabId, name, round, running])

  const merge = async (skipConflicts: boolean, overwriteConflicts: boolean): Promise<void> => {
    if (!bridge) return
    setBusy(true)
    setError(null)
    try {
      // Only resolutions of files that still conflict are sent (an older one would be refused).
      const paths = new Set((preview?.conflicts ?? []).map((c) => c.path))
      const chosen = Object.values(resolutions ?? {}).filter((r) => paths.has(r.path))
      setResult(await worktreesFor(bridge, tabId).merge(name, { skipConflicts, overwriteConflicts, ...(chosen.length > 0 ? { resolutions: chosen } : {}) }))
      clearResolutions(tabId, name)
    } catch (e) {
      // Someone changed the main tree since the preview: show the new one.
      if (e instanceof IpcError && e.name === 'WorktreeConflicts') setRound((n) => n + 1)
      setError(errorMessage(e))
    } finally {
      setBusy(false)
    }
  }
  const undo = async (): Promise<void> => {
    if (!bridge || !result?.undoCheckpointId) return
    const restored = await bridge.checkpoint.restore({ checkpointId: result.undoCheckpointId, mode: 'code', includeUserCreated: true, overwriteConflicts: true })
    if (restored.ok) setUndone(true)
    else setError(`Undo failed: ${restored.error.data.message}`)
  }
  const keepBranch = (): void => {
    showWorktreeView(null)
    if (worktree?.branch) workspace.showError(`Nothing merged. The branch ${worktree.branch} keeps the work: git merge ${worktree.branch}, or push it for a pull request.`)
  }

  const conflicts = preview?.conflicts ?? []
  const apply = preview?.apply ?? []
  const merged = preview?.merged ?? []
  const open = conflicts.filter((c) => !resolutions?.[c.path])
  const selectedChange: WorktreeFileChange | undefined = selection?.kind === 'apply' ? apply.find((a) => a.path === selection.path)?.change : undefined
  const selectedMerged = selection?.kind === 'merged' ? merged.find((m) => m.path === selection.path) : undefined
  const selectedConflict = selection?.kind === 'conflict' ? conflicts.find((c) => c.path === selection.path) : undefined
  const title = `Merge worktree ${name} into the main tree`
  const actions = result ? null : (
    <span className="merge-actions">
      {running && <span className="muted small">A turn runs in this worktree: merge when it has ended.</span>}
      {open.length > 0 && (
        <span className="muted small" data-testid="merge-open-count">
          {open.length} conflict{open.length === 1 ? '' : 's'} to resolve
        </span>
      )}
      <button
        type="button"
        className="small primary"
        disabled={busy || running || !preview || open.length > 0 || (apply.length === 0 && merged.length === 0 && conflicts.length === 0)}
        onClick={() => background('merge', merge(false, false))}
      >
        Merge
      </button>
      {open.length > 0 && (
        <button type="button" className="small" disabled={busy || running || (apply.length === 0 && merged.length === 0 && open.length === conflicts.length)} onClick={() => background('merge', merge(true, false))}>
          Merge, keeping yours where unresolved
        </button>
      )}
      {worktree?.kind === 'git' && (
        <button type="button" className="small" disabled={busy} onClick={keepBranch}>
          Keep the branch
        </button>
      )}
    </span>
  )
  return (
    <Overlay title={title} testId="merge-dialog" actions={actions}>
      {error && (
        <div className="error pad merge-error" role="alert">
          {error}
        </div>
      )}
      {result ? (
        <Outcome result={result} undone={undone} onUndo={() => background('undoMerge', undo())} />
      ) : !preview ? (
        !error && <div className="muted pad">Comparing the worktree, its base and the main tree…</div>
      ) : conflicts.length === 0 && apply.length === 0 ? (
        <div className="muted pad" data-testid="merge-empty">
          Nothing to merge: the main tree already has every change of this worktree.
        </div>
      ) : (
        <>
          <ul className="changes-files" role="listbox" aria-label="Files to merge">
            {conflicts.length > 0 && <li className="merge-section conflicts">Conflicts ({conflicts.length})</li>}
            {conflicts.map((c) => (
              <FileRow
                key={`c:${c.path}`}
                change={c.worktree}
                note={resolutionNote(resolutions?.[c.path])}
                selected={selection?.kind === 'conflict' && selection.path === c.path}
                onSelect={() => setSelection({ kind: 'conflict', path: c.path })}
              />
            ))}
            {merged.length > 0 && <li className="merge-section">Merged with your changes ({merged.length})</li>}
            {merged.map((m) => (
              <FileRow key={`m:${m.path}`} change={m.change} note="merged" selected={selection?.kind === 'merged' && selection.path === m.path} onSelect={() => setSelection({ kind: 'merged', path: m.path })} />
            ))}
            {apply.length > 0 && <li className="merge-section">To apply ({apply.length})</li>}
            {apply.map((a) => (
              <FileRow key={`a:${a.path}`} change={a.change} note={applyNote(a.action, a.change)} selected={selection?.kind === 'apply' && selection.path === a.path} onSelect={() => setSelection({ kind: 'apply', path: a.path })} />
            ))}
            {preview.same.length > 0 && <li className="merge-section muted">Already the same ({preview.same.length})</li>}
            {preview.same.map((path) => (
              <li key={`s:${path}`} className="changes-file muted" title="Changed the same way on both sides">
                <span className="changes-path">{path}</span>
              </li>
            ))}
          </ul>
          <div className="merge-detail">
            {selectedConflict && <ResolveBar key={`r:${selectedConflict.path}`} tabId={tabId} name={name} conflict={selectedConflict} resolution={resolutions?.[selectedConflict.path]} />}
            {selectedConflict && <ConflictSides key={selectedConflict.path} tabId={tabId} name={name} conflict={selectedConflict} />}
            {selectedMerged && <WorktreeFileDiff key={`m:${selectedMerged.path}`} tabId={tabId} name={name} path={selectedMerged.path} side="merged" />}
            {selectedChange && (
              <WorktreeFileDiff key={selectedChange.path} tabId={tabId} name={name} path={selectedChange.path} side="worktree" {...(selectedChange.from !== undefined ? { from: selectedChange.from } : {})} />
            )}
          </div>
        </>
      )}
    </Overlay>
  )
}
