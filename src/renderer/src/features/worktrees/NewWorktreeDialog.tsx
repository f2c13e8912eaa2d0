import { useState } from 'react'
import { Modal } from '../../components/Modal'
import type { WorktreeBase } from '@shared/schema/worktree'
import { WorktreeName } from '@shared/schema/worktree'
import { chatFor, worktreesFor } from '../../stores/chat'
import { useProject } from '../../stores/project'
import { useWorkspace } from '../../stores/workspace'
import { errorMessage } from '../../ipc'
import { background } from '../../lib/background'
import { showWorktreeView } from './state'

/**
 * "New session in a new worktree": an optional name (generated when empty) and, for git, where the branch
 * starts. The session opens in the new worktree's chat, ready for the first message.
 */
export function NewWorktreeDialog({ tabId }: { tabId: string }) {
  const bridge = useWorkspace((s) => s.bridge)
  // A folder without git gets a copy of its current tree: there is no branch to start from.
  const git = useProject((s) => s.git?.repo ?? false)
  const [name, setName] = useState('')
  const [base, setBase] = useState<WorktreeBase>('head')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const trimmed = name.trim()
  const invalid = trimmed ? (WorktreeName.safeParse(trimmed).error?.issues[0]?.message ?? null) : null
  const create = async (): Promise<void> => {
    if (!bridge || invalid) return
    setBusy(true)
    setError(null)
    try {
      const worktree = await worktreesFor(bridge, tabId).create(trimmed || undefined, git ? base : undefined)
      showWorktreeView(null)
      await chatFor(bridge, worktree.projectId).newSession()
      requestAnimationFrame(() => document.querySelector<HTMLElement>('.project:not([hidden]) [data-testid="chat-input"]')?.focus())
    } catch (e) {
      setError(errorMessage(e))
      setBusy(false)
    }
  }
  return (
    <Modal title="New session in a new worktree" onCancel={() => showWorktreeView(null)} testId="new-worktree">
      <form
        onSubmit={(e) => {
          e.preventDefault()
          background('createWorktree', create())
        }}
      >
        <p className="muted">
          The session works in its own copy of the project (a git worktree on a branch <code>hotaru/…</code>, or a copy for a folder without git), so it
          can run beside other sessions. Its changes reach this folder only when you merge them.
        </p>
        <label className="field">
          <span>Name (optional)</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="generated when empty" aria-label="Worktree name" aria-invalid={invalid !== null} />
        </label>
        {invalid && <div className="error small">{invalid}</div>}
        {git && (
          <label className="field">
            <span>Start from</span>
            <select value={base} onChange={(e) => setBase(e.target.value as WorktreeBase)} aria-label="Start from">
              <option value="head">the current HEAD</option>
              <option value="default">the default branch</option>
            </select>
          </label>
        )}
        {error && (
          <div className="error" role="alert">
            {error}
          </div>
        )}
        <div className="modal-actions">
          <button type="button" onClick={() => showWorktreeView(null)}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy || invalid !== null}>
            {busy ? 'Creating…' : 'Create worktree'}
          </button>
        </div>
      </form>
    </Modal>
  )
}
