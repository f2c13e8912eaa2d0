import type { EventEnvelope } from '@shared/ipc'
import { Emitter } from '../util/emitter'

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
  private readonly listeners = new Emitter<BusEvent>('bus')
  private readonly seqs = new Map<string, number>()

  publish(channel: string, payload: unknown, projectId?: string): BusEvent {
    const scope = projectId ?? ''
    const seq = (this.seqs.get(scope) ?? 0) + 1
    this.seqs.set(scope, seq)
    const envelope: EventEnvelope = projectId === undefined ? { seq, payload } : { projectId, seq, payload }
    const event = { channel, envelope }
    // A failing observer is logged; it breaks neither the publisher nor the other observers.
    this.listeners.emit(event)
    return event
  }

  subscribe(listener: BusListener): () => void {
    return this.listeners.on(listener)
  }
}
