import { createStore, type StoreApi } from 'zustand'
import { background } from '../lib/background'
import { onProjectDropped } from './project'
import { onResync } from './resync'

export interface MirrorOptions<S> {
  /** What is mirrored, for the failure log. */
  what: string
  initial: () => S
  /** Reads the state from core into the store. */
  reload: (store: StoreApi<S>) => Promise<void>
  /** Subscribes to the events that change it (`reload` re-reads everything); returns the unsubscribers. */
  events: (store: StoreApi<S>, reload: () => void) => Array<() => void>
}

/**
 * One project's copy of some core state (problems, notices, background processes): created on first
 * use, read at once and again after a reconnect, kept current by its events, and released with
 * everything it subscribed when the project tab closes.
 */
export function projectMirror<S>(stores: Map<string, StoreApi<S>>, projectId: string, options: MirrorOptions<S>): StoreApi<S> {
  const existing = stores.get(projectId)
  if (existing) return existing
  const store = createStore<S>(options.initial)
  const reload = (): void => background(`${options.what} reload`, options.reload(store))
  const unsubscribers = [...options.events(store, reload), onResync(reload)]
  const offDrop = onProjectDropped((id) => {
    if (id !== projectId) return
    for (const off of unsubscribers) off()
    offDrop()
    stores.delete(projectId)
  })
  stores.set(projectId, store)
  reload()
  return store
}
