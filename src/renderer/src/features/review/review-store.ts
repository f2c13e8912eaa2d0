import { createStore, useStore, type StoreApi } from 'zustand'
import type { Review, ReviewConflict } from '@shared/schema/review'
import type { ChatController } from '../../stores/chat'
import { errorMessage, unwrap } from '../../ipc'
import { background } from '../../lib/background'

export interface ReviewRange {
  sessionId: string
  fromId: string
  toId: string
}

export interface ReviewState {
  review: Review | null
  conflicts: ReviewConflict[]
  undoCheckpointId: string | null
  busy: boolean
  error: string | null
}

export type Decide = (action: 'accept' | 'reject', path?: string, hunk?: number) => Promise<void>

interface Entry {
  store: StoreApi<ReviewState>
  decide: Decide
  reload(): void
}

/**
 * One turn review as every view of this window holds it (the editor's inline
 * changes, the bar above the composer, the review overlay): loaded from core,
 * each decision made there, so they never disagree with each other or the CLI.
 */
const entries = new Map<string, Entry>()

function keyOf(chat: ChatController, range: ReviewRange): string {
  return `${chat.projectId}:${range.sessionId}:${range.fromId}:${range.toId}`
}

export function reviewEntry(chat: ChatController, range: ReviewRange): Entry {
  const key = keyOf(chat, range)
  const known = entries.get(key)
  if (known) return known
  const store = createStore<ReviewState>(() => ({ review: null, conflicts: [], undoCheckpointId: null, busy: false, error: null }))
  const reload = (): void => {
    background(
      'review.get',
      chat.bridge.review.get(range).then((result) => {
        if (result.ok) store.setState({ review: result.value, error: null })
        else store.setState({ error: result.error.data.message })
      }),
    )
  }
  const decide: Decide = async (action, path, hunk) => {
    store.setState({ busy: true })
    try {
      const outcome = await unwrap(chat.bridge.review.decide({ ...range, action, ...(path !== undefined ? { path } : {}), ...(hunk !== undefined ? { hunk } : {}) }))
      store.setState((s) => ({ review: outcome.review, conflicts: outcome.conflicts, undoCheckpointId: outcome.undoCheckpointId ?? s.undoCheckpointId, busy: false, error: null }))
    } catch (error) {
      store.setState({ busy: false, error: errorMessage(error) })
    }
  }
  const entry = { store, decide, reload }
  entries.set(key, entry)
  reload()
  return entry
}

const EMPTY: ReviewState = { review: null, conflicts: [], undoCheckpointId: null, busy: false, error: null }
const NONE = createStore<ReviewState>(() => EMPTY)
const noDecide: Decide = async () => {}

/** The review of a range (none: an empty state), and how to decide in it. */
export function useReview(chat: ChatController, range: ReviewRange | null): ReviewState & { decide: Decide } {
  const entry = range ? reviewEntry(chat, range) : null
  const state = useStore(entry?.store ?? NONE)
  return { ...state, decide: entry?.decide ?? noDecide }
}
