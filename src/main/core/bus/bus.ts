import type { EventEnvelope } from '@shared/ipc'

export interface BusEvent {
  /** `domain:event`, as in `eventChannel()`. */
  channel: string
  envelope: EventEnvelope
}

export type BusListener = (event: BusEvent) => void

/**
 * In-process event bus. Core modules call each other directly; the bus only
 * notifies observers (the IPC bridges). Every scope (a project, or the app) has
 * its own monotonically increasing `seq`.
 */
export class EventBus {
  private readonly listeners = new Set<BusListener>()
  private readonly seqs = new Map<string, number>()

  publish(channel: string, payload: unknown, projectId?: string): BusEvent {
    const scope = projectId ?? ''
    const seq = (this.seqs.get(scope) ?? 0) + 1
    this.seqs.set(scope, seq)
    const envelope: EventEnvelope = projectId === undefined ? { seq, payload } : { projectId, seq, payload }
    const event = { channel, envelope }
    for (const listener of [...this.listeners]) {
      try {
        listener(event)
      } catch (error) {
        // A failing observer must not break the publisher or other observers.
        console.error(`[bus] listener for ${channel} failed:`, error)
      }
    }
    return event
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
