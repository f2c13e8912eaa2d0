import { useEffect, useMemo, useState } from 'react'
import type { MethodOutput } from '@shared/ipc'
import { errorMessage, unwrap } from '../../ipc'
import { useChatController } from '../../stores/chat'
import { useProject } from '../../stores/project'
import { DiffView } from '../editor'
import { patchOf, revertHunk } from './hunks'
import { background } from '../../lib/background'

type Versions = MethodOutput<'checkpoint', 'file'>
type HunkState = 'accepted' | 'rejected' | 'conflict' | 'working'

interface FileReviewProps {
  sessionId: string
  fromId: string
  toId?: string
  path: string
  /** Turn review: hunks can be accepted or rejected (rejected ones are reverted on disk). */
  hunks: boolean
}

function sideText(side: Versions['old']): string {
  return side?.text ?? ''
}

/** One file of a review: the Monaco diff, and in a turn review its hunks with Accept / Reject. */
export function FileReview({ sessionId, fromId, toId, path, hunks }: FileReviewProps) {
  const chat = useChatController()
  const projectId = useProject((s) => s.projectId)
  const sideBySide = useProject((s) => s.view.diffSideBySide)
  const setView = useProject((s) => s.setView)
  const [versions, setVersions] = useState<Versions | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [states, setStates] = useState<Record<number, HunkState>>({})
  const [note, setNote] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    background('chat.bridge.checkpoint.file', chat.bridge.checkpoint.file({ fromId, ...(toId ? { toId } : {}), path }).then((result) => {
      if (!live) return
      if (result.ok) setVersions(result.value)
      else setError(result.error.data.message)
    }))
    return () => {
      live = false
    }
  }, [chat, fromId, toId, path])

  const before = sideText(versions?.old ?? null)
  const after = sideText(versions?.new ?? null)
  const file = useMemo(() => (versions && !versions.binary ? patchOf(path, before, after) : null), [versions, path, before, after])

  const reject = async (index: number): Promise<void> => {
    if (!file) return
    setStates((s) => ({ ...s, [index]: 'working' }))
    try {
      const current = await unwrap(chat.bridge.fs.read({ projectId, path }))
      const reverted = revertHunk(file, index, current.content)
      if (reverted === null || current.truncated) {
        setStates((s) => ({ ...s, [index]: 'conflict' }))
        setNote(`${path} changed since this turn: that hunk could not be reverted. Edit the file, or restore a checkpoint.`)
        return
      }
      await unwrap(chat.bridge.fs.write({ projectId, path, content: reverted, expectedMtimeMs: current.mtimeMs }))
      chat.checkpoints.addRejected(sessionId, { path, diff: file.texts[index] ?? '' })
      setStates((s) => ({ ...s, [index]: 'rejected' }))
    } catch (e) {
      setStates((s) => ({ ...s, [index]: 'conflict' }))
      setNote(`Could not revert: ${errorMessage(e)}`)
    }
  }

  if (error) return <div className="error pad">{error}</div>
  if (!versions) return <div className="muted pad">Loading {path}…</div>
  if (versions.binary) return <div className="muted pad">{path} is a binary file.</div>
  if (versions.old?.kind === 'untracked' || versions.new?.kind === 'untracked') return <div className="muted pad">{path} is too large to have been kept.</div>

  return (
    <div className="file-review" data-testid="file-review" data-path={path}>
      <div className="file-review-diff">
        <DiffView
          original={before}
          modified={after}
          path={path}
          sideBySide={sideBySide}
          onSideBySideChange={(value) => setView({ diffSideBySide: value })}
          originalLabel={versions.old ? 'before' : '(new file)'}
          modifiedLabel={versions.new ? (toId ? 'after' : 'working tree') : '(deleted)'}
        />
      </div>
      {hunks && file && (
        <div className="hunk-list" aria-label="Hunks">
          {note && (
            <div className="hunk-note error" role="alert">
              {note}
            </div>
          )}
          {file.texts.map((text, i) => {
            const state = states[i]
            return (
              <div key={i} className={`hunk hunk-${state ?? 'open'}`} data-testid="hunk" data-state={state ?? 'open'}>
                <pre className="hunk-text">
                  {text.split('\n').map((line, j) => (
                    <span key={j} className={line.startsWith('+') ? 'dl dl-add' : line.startsWith('-') ? 'dl dl-del' : line.startsWith('@@') ? 'dl dl-hunk' : 'dl'}>
                      {line}
                      {'\n'}
                    </span>
                  ))}
                </pre>
                <div className="hunk-actions">
                  {state === 'rejected' ? (
                    <span className="muted">Reverted on disk; the agent will be told.</span>
                  ) : state === 'accepted' ? (
                    <span className="muted">Accepted</span>
                  ) : state === 'conflict' ? (
                    <span className="error">Not reverted</span>
                  ) : (
                    <>
                      <button type="button" className="small" disabled={state === 'working'} onClick={() => setStates((s) => ({ ...s, [i]: 'accepted' }))} data-testid="hunk-accept">
                        Accept
                      </button>
                      <button type="button" className="small reject" disabled={state === 'working'} onClick={() => background('reject', reject(i))} data-testid="hunk-reject">
                        Reject
                      </button>
                    </>
                  )}
                </div>
              </div>
            )
          })}
        </div>
      )}
    </div>
  )
}
