import { useEffect, useState } from 'react'
import { background } from '../../lib/background'
import type { MethodOutput } from '@shared/ipc'
import type { RestoreMode } from '@shared/schema/checkpoint'
import { Modal } from '../../components/Modal'
import { errorMessage } from '../../ipc'
import { useChatController, useCheckpoints } from '../../stores/chat'
import type { Checkpoint } from '@shared/schema/checkpoint'
import { checkpointTitle } from '@shared/checkpoint-label'
import { checkpointTime } from './labels'
import { useMessageSnippet } from './Timeline'
import { Icon } from '../../components/Icon'

type Preview = MethodOutput<'checkpoint', 'preview'>

/** Stands in while the dialog is closed (hooks run before the early return). */
const NO_CHECKPOINT: Checkpoint = {
  id: '',
  projectId: '',
  sessionId: null,
  messageId: null,
  snapshotId: '',
  trigger: 'step',
  createdAt: 0,
  summary: { added: 0, modified: 0, deleted: 0, additions: 0, deletions: 0, files: [], untracked: [] },
}

const MODES: { value: RestoreMode; label: string; hint: string }[] = [
  { value: 'code', label: 'Code', hint: 'files only' },
  { value: 'conversation', label: 'Conversation', hint: 'remove the messages from here on' },
  { value: 'both', label: 'Both', hint: 'files and conversation' },
]

function PathList({ title, items, testId }: { title: string; items: { path: string; note?: string }[]; testId: string }) {
  if (items.length === 0) return null
  return (
    <div className="restore-group" data-testid={testId}>
      <div className="ask-label">
        {title} ({items.length})
      </div>
      <ul>
        {items.slice(0, 200).map((item) => (
          <li key={item.path}>
            <code>{item.path}</code>
            {item.note && <span className="muted"> — {item.note}</span>}
          </li>
        ))}
      </ul>
    </div>
  )
}

/** Which checkpoint this dialog restores: what happened there and when. What the restore does is the preview's. */
function CheckpointName({ checkpoint }: { checkpoint: Checkpoint }) {
  const snippet = useMessageSnippet(checkpoint.sessionId ?? '', checkpoint)
  return (
    <div className="restore-target" data-testid="restore-target">
      <strong>{checkpointTitle(checkpoint, snippet)}</strong>
      <span className="muted">{checkpointTime(checkpoint)}</span>
    </div>
  )
}

/** "Rewrites 2 files, recreates 1 and deletes 1." from the core's preview of this restore. */
function restoreSentence(preview: Preview): string {
  const rewrites = preview.writes.filter((w) => w.action === 'update').length
  const recreates = preview.writes.length - rewrites
  const files = (n: number): string => `${n} file${n === 1 ? '' : 's'}`
  const parts = [rewrites > 0 ? `rewrites ${files(rewrites)}` : '', recreates > 0 ? `recreates ${files(recreates)}` : '', preview.deletes.length > 0 ? `deletes ${files(preview.deletes.length)}` : ''].filter(Boolean)
  if (parts.length === 0) return 'Changes no files.'
  const last = parts.pop() as string
  const sentence = parts.length > 0 ? `${parts.join(', ')} and ${last}` : last
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`
}

/** Restore, previewed: what would be written, deleted, kept and skipped, before anything is touched. */
function RestoreBody({ checkpointId }: { checkpointId: string }) {
  const chat = useChatController()
  const checkpoint = useCheckpoints((s) => Object.values(s.bySession).flat().find((c) => c.id === checkpointId))
  const canConversation = checkpoint?.trigger === 'message'
  const [mode, setMode] = useState<RestoreMode>('code')
  const [includeUserCreated, setIncludeUserCreated] = useState(false)
  const [overwriteConflicts, setOverwriteConflicts] = useState(false)
  // A preview belongs to the options it was made for: changing one hides it until the new one arrives.
  const key = `${mode}:${includeUserCreated}:${overwriteConflicts}`
  const [made, setMade] = useState<{ key: string; preview: Preview } | null>(null)
  const preview = made?.key === key ? made.preview : null
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    background('chat.bridge.checkpoint.preview', chat.bridge.checkpoint.preview({ checkpointId, mode, includeUserCreated, overwriteConflicts }).then((result) => {
      if (!live) return
      if (result.ok) setMade({ key: `${mode}:${includeUserCreated}:${overwriteConflicts}`, preview: result.value })
      else setError(result.error.data.message)
    }))
    return () => {
      live = false
    }
  }, [chat, checkpointId, mode, includeUserCreated, overwriteConflicts])

  const apply = async (): Promise<void> => {
    if (!preview) return
    setBusy(true)
    try {
      await chat.checkpoints.restore(checkpointId, {
        mode,
        includeUserCreated,
        overwriteConflicts,
        ...(preview.currentId ? { expectCurrentId: preview.currentId } : {}),
      })
    } catch (e) {
      setError(errorMessage(e))
      setBusy(false)
    }
  }

  const nothing = preview && preview.writes.length + preview.deletes.length === 0 && preview.messagesRemoved === 0
  return (
    <div className="restore" data-testid="restore-dialog">
      {checkpoint && <CheckpointName checkpoint={checkpoint} />}
      <div className="segmented" role="radiogroup" aria-label="What to restore">
        {MODES.map((m) => (
          <label key={m.value} className={`restore-mode${mode === m.value ? ' on' : ''}`} title={m.hint}>
            <input type="radio" name="restore-mode" value={m.value} checked={mode === m.value} disabled={m.value !== 'code' && !canConversation} onChange={() => setMode(m.value)} data-testid={`restore-mode-${m.value}`} />
            {m.label}
          </label>
        ))}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!preview && !error && <p className="muted">Working out what a restore would do…</p>}
      {preview && (
        <div className="restore-preview" data-testid="restore-preview">
          {nothing ? (
            <p className="muted">Nothing to change: the project already matches this checkpoint.</p>
          ) : (
            mode !== 'conversation' && (
              <p className="restore-sentence" data-testid="restore-summary">
                {restoreSentence(preview)}
              </p>
            )
          )}
          <PathList title="Rewrite" items={preview.writes.filter((w) => w.action === 'update').map((w) => ({ path: w.path }))} testId="restore-writes" />
          <PathList title="Recreate" items={preview.writes.filter((w) => w.action === 'create').map((w) => ({ path: w.path }))} testId="restore-creates" />
          <PathList title="Delete" items={preview.deletes.map((path) => ({ path }))} testId="restore-deletes" />
          <PathList title="Edited by you since — kept unless overwritten" items={preview.conflicts.map((c) => ({ path: c.path, note: `${c.reason}; ${c.resolution}` }))} testId="restore-conflicts" />
          <PathList title="Created by you since" items={preview.userCreated.map((u) => ({ path: u.path, note: u.resolution }))} testId="restore-user" />
          <PathList title="Skipped" items={preview.skipped.map((s) => ({ path: s.path, note: s.reason }))} testId="restore-skipped" />
          <PathList title="Too large to have been kept (not restored)" items={preview.untracked.map((u) => ({ path: u.path, note: `${Math.round(u.size / 1024)} KB` }))} testId="restore-untracked" />
          {preview.messagesRemoved > 0 && <p className="warn-text">{preview.messagesRemoved} message(s) will be removed from the conversation (this part cannot be undone).</p>}
          <label className="restore-option">
            <input type="checkbox" checked={overwriteConflicts} onChange={(e) => setOverwriteConflicts(e.target.checked)} /> Overwrite files I edited since
          </label>
          <label className="restore-option">
            <input type="checkbox" checked={includeUserCreated} onChange={(e) => setIncludeUserCreated(e.target.checked)} /> Delete files I created since
          </label>
        </div>
      )}
      <div className="modal-actions">
        <button type="button" onClick={() => chat.checkpoints.openRestore(null)}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={!preview || busy || !!nothing} onClick={() => background('apply', apply())} data-testid="restore-apply">
          Restore
        </button>
      </div>
    </div>
  )
}

export function RestoreDialog() {
  const chat = useChatController()
  const checkpointId = useCheckpoints((s) => s.restoring)
  const checkpoint = useCheckpoints((s) => (checkpointId ? Object.values(s.bySession).flat().find((c) => c.id === checkpointId) : undefined))
  const snippet = useMessageSnippet(checkpoint?.sessionId ?? '', checkpoint ?? NO_CHECKPOINT)
  if (!checkpointId) return null
  return (
    <Modal title={checkpoint ? `Restore: ${checkpointTitle(checkpoint, snippet)}` : 'Restore checkpoint'} onCancel={() => chat.checkpoints.openRestore(null)} testId="restore-modal" className="restore-modal">
      <RestoreBody key={checkpointId} checkpointId={checkpointId} />
    </Modal>
  )
}

/** After a restore: what it did, and Undo (the state before it was recorded as a checkpoint). */
export function RestoreBanner() {
  const chat = useChatController()
  const last = useCheckpoints((s) => s.lastRestore)
  const [error, setError] = useState<string | null>(null)
  if (!last) return null
  return (
    <div className="restore-banner" role="status" data-testid="restore-banner">
      <span>
        Restored: {last.written} written, {last.deleted} deleted
        {last.messagesRemoved > 0 ? `, ${last.messagesRemoved} messages removed` : ''}.{error && <span className="error"> {error}</span>}
      </span>
      {last.undoCheckpointId && (
        <button type="button" className="small" onClick={() => background('chat.checkpoints.undoRestore', chat.checkpoints.undoRestore().then(setError))} data-testid="restore-undo">
          Undo restore
        </button>
      )}
      <button type="button" className="icon" aria-label="Dismiss" onClick={() => chat.checkpoints.dismissRestore()}>
        <Icon name="close" />
      </button>
    </div>
  )
}
