import { createStore, type StoreApi } from 'zustand'
import type { HotaruBridge, MethodOutput } from '@shared/ipc'
import type { Checkpoint } from '@shared/schema/checkpoint'
import { errorMessage, unwrap } from '../ipc'
import { onResync } from './resync'
import { background } from '../lib/background'

/** What the changes overlay shows: one turn's changes, or one checkpoint against the tree or its predecessor. */
export type ChangesView =
  | { kind: 'turn'; sessionId: string; fromId: string; toId?: string; title: string }
  | { kind: 'checkpoint'; sessionId: string; checkpointId: string; against: 'working' | 'previous' }

export type RestoreResult = MethodOutput<'checkpoint', 'restore'>

export interface CheckpointState {
  /** Oldest first, per session; absent until loaded. */
  bySession: Record<string, Checkpoint[]>
  showTimeline: boolean
  view: ChangesView | null
  /** The checkpoint whose restore is being previewed. */
  restoring: string | null
  /** The last restore of this project, until undone or dismissed (offers "Undo"). */
  lastRestore: (RestoreResult & { checkpointId: string }) | null
  /** The snapshot our last step or restore left the tree at (null: none yet, or not loaded). */
  position: string | null
  /** The timeline's selected row, by id (a row added above must not move it). */
  selected: string | null
  /** The checkpoint the last restore (or its undo) went to: "you are here" names it, not a twin with the same snapshot. */
  restoredTo: string | null
}

export type CheckpointStore = StoreApi<CheckpointState>

/**
 * A project's checkpoint timeline as the UI holds it: per-session lists
 * (loaded on demand, extended by `checkpoint:created`), which review or
 * restore is open, and the hunks the user reverted.
 */
export class CheckpointsController {
  readonly store: CheckpointStore
  private readonly unsubscribers: (() => void)[]
  private readonly loading = new Set<string>()
  /** Created while a list was being fetched: it may or may not be in the answer. */
  private early: Checkpoint[] = []

  constructor(
    readonly bridge: HotaruBridge,
    readonly projectId: string,
  ) {
    this.store = createStore<CheckpointState>(() => ({
      bySession: {},
      showTimeline: false,
      view: null,
      restoring: null,
      lastRestore: null,
      position: null,
      selected: null,
      restoredTo: null,
    }))
    this.unsubscribers = [
      bridge.checkpoint.onCreated(({ projectId: id, payload }) => {
        const sessionId = payload.sessionId
        if (id !== projectId || !sessionId) return
        if (this.loading.has(sessionId)) this.early.push(payload)
        background('this.loadPosition', this.loadPosition())
        this.store.setState((s) => {
          const list = s.bySession[sessionId]
          // Sessions never opened load their whole list when shown.
          if (!list || list.some((c) => c.id === payload.id)) return s
          return { bySession: { ...s.bySession, [sessionId]: [...list, payload] } }
        })
      }),
      onResync(() => {
        background('this.loadPosition', this.loadPosition())
        for (const sessionId of Object.keys(this.store.getState().bySession)) background('this.load', this.load(sessionId))
      }),
    ]
  }

  dispose(): void {
    for (const off of this.unsubscribers) off()
  }

  ensure(sessionId: string): void {
    if (Object.keys(this.store.getState().bySession).length === 0) background('this.loadPosition', this.loadPosition())
    if (!this.store.getState().bySession[sessionId] && !this.loading.has(sessionId)) background('this.load', this.load(sessionId))
  }

  async load(sessionId: string): Promise<void> {
    this.loading.add(sessionId)
    const result = await this.bridge.checkpoint.list({ projectId: this.projectId, sessionId })
    this.loading.delete(sessionId)
    const early = this.early.filter((c) => c.sessionId === sessionId)
    this.early = this.early.filter((c) => c.sessionId !== sessionId)
    if (result.ok) {
      const list = [...result.value, ...early.filter((c) => !result.value.some((r) => r.id === c.id))].sort((a, b) => (a.id < b.id ? -1 : 1))
      this.store.setState((s) => ({ bySession: { ...s.bySession, [sessionId]: list } }))
    }
    else console.warn('[checkpoints] not listed:', result.error.data.message)
  }

  async loadPosition(): Promise<void> {
    const result = await this.bridge.checkpoint.position({ projectId: this.projectId })
    if (result.ok) this.store.setState({ position: result.value.snapshotId })
    else console.warn('[checkpoints] position unknown:', result.error.data.message)
  }

  setShowTimeline(show: boolean): void {
    this.store.setState({ showTimeline: show })
  }

  open(view: ChangesView | null): void {
    this.store.setState({ view })
  }

  openRestore(checkpointId: string | null): void {
    this.store.setState({ restoring: checkpointId })
  }

  select(checkpointId: string | null): void {
    this.store.setState({ selected: checkpointId })
  }

  async restore(checkpointId: string, request: Omit<Parameters<HotaruBridge['checkpoint']['restore']>[0], 'checkpointId'>): Promise<RestoreResult> {
    const result = await unwrap(this.bridge.checkpoint.restore({ checkpointId, ...request }))
    // The restored point is the one selected row, wherever the restore was started from.
    this.store.setState({ lastRestore: { ...result, checkpointId }, restoring: null, selected: checkpointId, restoredTo: checkpointId })
    await this.loadPosition()
    return result
  }

  /** Restores the state before the last restore (its code; the conversation cannot come back). */
  async undoRestore(): Promise<string | null> {
    const last = this.store.getState().lastRestore
    if (!last?.undoCheckpointId) return null
    try {
      await unwrap(this.bridge.checkpoint.restore({ checkpointId: last.undoCheckpointId, mode: 'code', overwriteConflicts: true, includeUserCreated: true }))
      this.store.setState({ lastRestore: null, selected: last.undoCheckpointId, restoredTo: last.undoCheckpointId })
      await this.loadPosition()
      return null
    } catch (error) {
      return errorMessage(error)
    }
  }

  dismissRestore(): void {
    this.store.setState({ lastRestore: null })
  }
}

export { REVIEW_NOTE_END } from '@shared/schema/review'
