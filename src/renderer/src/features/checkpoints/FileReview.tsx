import { useEffect, useMemo, useState } from 'react'
import { background } from '../../lib/background'
import type { MethodOutput } from '@shared/ipc'
import type { ReviewFile } from '@shared/schema/review'
import { useChatController } from '../../stores/chat'
import { useProject } from '../../stores/project'
import { DiffView, type DiffZone } from '../editor'
import { hunkAnchor, hunkCounts } from './review-model'

type Versions = MethodOutput<'checkpoint', 'file'>

export type Decide = (action: 'accept' | 'reject', path?: string, hunk?: number) => Promise<void>

interface FileReviewProps {
  fromId: string
  toId?: string
  path: string
  /** Turn review: the file's hunks with their decisions; Accept / Reject sit inline in the diff. */
  review?: { file: ReviewFile; decide: Decide; busy: boolean }
}

function sideText(side: Versions['old']): string {
  return side?.text ?? ''
}

function HunkActions({ file, index, decide, busy }: { file: ReviewFile; index: number; decide: Decide; busy: boolean }) {
  const hunk = file.hunks[index]
  if (!hunk) return null
  const { additions, deletions } = hunkCounts(hunk)
  const name = `hunk ${index + 1} of ${file.hunks.length}`
  return (
    <div className={`hunk-zone hunk-${hunk.decision ?? 'open'}`} role="group" aria-label={`Hunk ${index + 1}`} data-testid="hunk" data-state={hunk.decision ?? 'open'}>
      <span className="muted mono">
        Hunk {index + 1}/{file.hunks.length} <span className="add">+{additions}</span> <span className="del">−{deletions}</span>
      </span>
      {hunk.decision === 'rejected' ? (
        <span className="muted">Rejected: reverted on disk, the agent will be told.</span>
      ) : (
        <>
          {hunk.decision === 'accepted' ? (
            <span className="ok-text">Accepted</span>
          ) : (
            <button type="button" className="small" disabled={busy} aria-label={`Accept ${name}`} onClick={() => background('decide', decide('accept', file.path, index))}>
              Accept
            </button>
          )}
          <button type="button" className="small reject" disabled={busy} aria-label={`Reject ${name}`} onClick={() => background('decide', decide('reject', file.path, index))}>
            Reject
          </button>
        </>
      )}
    </div>
  )
}

/** One file of a review: the Monaco diff; in a turn review, each hunk's Accept / Reject inline above it. */
export function FileReview({ fromId, toId, path, review }: FileReviewProps) {
  const chat = useChatController()
  const sideBySide = useProject((s) => s.view.diffSideBySide)
  const setView = useProject((s) => s.setView)
  const [versions, setVersions] = useState<Versions | null>(null)
  const [error, setError] = useState<string | null>(null)

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

  const file = review?.file
  const decide = review?.decide
  const busy = review?.busy ?? false
  const zones = useMemo<DiffZone[]>(() => {
    if (!file || !decide) return []
    return file.hunks.map((h) => ({ key: `h${h.index}`, line: hunkAnchor(h), content: <HunkActions file={file} index={h.index} decide={decide} busy={busy} /> }))
  }, [file, decide, busy])

  if (error) return <div className="error pad">{error}</div>
  if (!versions) return <div className="muted pad">Loading {path}…</div>
  const whole = versions.binary || versions.old?.kind === 'untracked' || versions.new?.kind === 'untracked'
  if (whole) {
    return (
      <div className="muted pad" data-testid="file-review" data-path={path}>
        {versions.binary ? `${path} is a binary file.` : `${path} is too large to have been kept.`}
        {review && ' Accept or reject it as a whole.'}
      </div>
    )
  }

  return (
    <div className="file-review" data-testid="file-review" data-path={path}>
      <div className="file-review-diff">
        <DiffView
          original={sideText(versions.old)}
          modified={sideText(versions.new)}
          path={path}
          sideBySide={sideBySide}
          onSideBySideChange={(value) => setView({ diffSideBySide: value })}
          originalLabel={versions.old ? 'before' : '(new file)'}
          modifiedLabel={versions.new ? (toId ? 'after' : 'working tree') : '(deleted)'}
          zones={zones}
        />
      </div>
    </div>
  )
}
