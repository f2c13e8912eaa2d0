import { useMemo, useState } from 'react'
import { Icon } from '../../components/Icon'
import { background } from '../../lib/background'
import { useChatController } from '../../stores/chat'
import { placeOpenHunks } from './hunk-layout'
import { useLatestTurnReview } from './latest-turn'
import { useReview } from './review-store'

export interface ChangeStop {
  path: string
  /** 1-based line of the change in the file as it is now. */
  line: number
}

/**
 * The bar above the composer while the agent's latest changes wait for a decision:
 * how many, "Next change" (opens the file at it, where the editor shows it inline),
 * Accept all / Reject all, and the full review.
 */
export function ReviewBar({ onShow }: { onShow(stop: ChangeStop): void }) {
  const chat = useChatController()
  const range = useLatestTurnReview(chat)
  const { review, decide, busy } = useReview(chat, range)
  const [at, setAt] = useState(-1)
  const stops = useMemo<ChangeStop[]>(
    () =>
      (review?.files ?? []).flatMap((f) => {
        if (f.wholeFile) return f.reviewed ? [] : [{ path: f.path, line: 1 }]
        return placeOpenHunks(f).map((h) => ({ path: f.path, line: h.anchor }))
      }),
    [review],
  )
  if (!range || !review || stops.length === 0) return null
  const files = new Set(stops.map((s) => s.path)).size
  const next = (): void => {
    const index = (at + 1) % stops.length
    setAt(index)
    const stop = stops[index]
    if (stop) onShow(stop)
  }
  return (
    <div className="review-bar" role="region" aria-label="The agent’s changes" data-testid="review-bar">
      <span className="review-bar-text" data-testid="review-bar-count">
        {stops.length} change{stops.length === 1 ? '' : 's'} in {files} file{files === 1 ? '' : 's'} to review
      </span>
      <button type="button" className="small ghost" onClick={next} title="Open the next change in the editor">
        <Icon name="arrow-down" /> Next change
      </button>
      <button type="button" className="small" disabled={busy} onClick={() => background('review.acceptAll', decide('accept'))}>
        <Icon name="check-all" /> Accept all
      </button>
      <button type="button" className="small reject" disabled={busy} onClick={() => background('review.rejectAll', decide('reject'))}>
        <Icon name="close-all" /> Reject all
      </button>
      <button
        type="button"
        className="small ghost"
        onClick={() => chat.checkpoints.open({ kind: 'turn', sessionId: range.sessionId, fromId: range.fromId, toId: range.toId, title: 'Changes in this turn' })}
        title="Every change of the turn, side by side"
      >
        <Icon name="diff" /> Review
      </button>
    </div>
  )
}
