import { useEffect, useMemo, useState } from 'react'
import { background } from '../../lib/background'
import type { MethodOutput } from '@shared/ipc'
import type { ReviewFile } from '@shared/schema/review'
import { useChatController } from '../../stores/chat'
import { useProject } from '../../stores/project'
import { DiffView, type DiffZone } from '../editor'
import { hunkCounts } from './review-model'
import { placeOpenHunks, withoutRejected } from '../review'

type Versions = MethodOutput<'checkpoint', 'file'>

export type Decide = (action: 'accept' | 'reject', path?: string, hunk?: number) => Promise<void>

interface FileReviewProps {
  fromId: string
  toId?: string
  path: string
  /** Turn review: the file's hunks with their decisions; Accept / Reject sit inline in the diff. */
  review?: { file: ReviewFile; decide: Decide; busy: boolean; focused?: number | null }
}

function sideText(side: Versions['old']): string {
  return side?.text ?? ''
}

function HunkActions({ file, index, decide, busy, focused }: { file: ReviewFile; index: number; decide: Decide; busy: boolean; focused: boolean }) {
  const hunk = file.hunks[index]
  if (!hunk) return null
  const { additions, deletions } = hunkCounts(hunk)
  const name = `hunk ${index + 1} of ${file.hunks.length}`
  return (
    <div className={`hunk-zone hunk-${hunk.decision ?? 'open'}${focused ? ' focused' : ''}`} role="group" aria-current={focused || undefined} aria-label={`Hunk ${index + 1}`} data-testid="hunk" data-state={hunk.decision ?? 'open'}>
      <span className="muted mono">
        Hunk {index + 1}/{file.hunks.length} <span className="add">+{additions}</span> <span className="del">−{deletions}</span>
      </span>
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
  const focused = review?.focused ?? null
  // Rejected hunks were reverted on disk: they leave the diff, and the others are placed in the file without them.
  const placed = useMemo(() => (file ? placeOpenHunks(file, true) : []), [file])
  const zones = useMemo<DiffZone[]>(() => {
    if (!file || !decide) return []
    return placed.map((h) => ({ key: `h${h.index}`, line: h.anchor, content: <HunkActions file={file} index={h.index} decide={decide} busy={busy} focused={focused === h.index} /> }))
  }, [file, placed, decide, busy, focused])
  const revealLine = placed.find((h) => h.index === focused)?.anchor

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
          modified={file ? withoutRejected(sideText(versions.new), file) : sideText(versions.new)}
          path={path}
          sideBySide={sideBySide}
          onSideBySideChange={(value) => setView({ diffSideBySide: value })}
          originalLabel={versions.old ? 'before' : '(new file)'}
          modifiedLabel={versions.new ? (toId ? 'after' : 'working tree') : '(deleted)'}
          zones={zones}
          {...(revealLine !== undefined ? { revealLine } : {})}
        />
      </div>
    </div>
  )
}
