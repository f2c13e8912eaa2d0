import type { EventEnvelope } from '@shared/ipc'
import type { Subscription } from '../util/disposable'
import { Emitter } from '../util/emitter'
import type { BusChannel, BusEvent, BusPayload, EventCheck } from './events'

export type { BusChannel, BusEvent, BusPayload, EventCheck } from './events'

export type BusListener = (event: BusEvent) => void

export interface EventBusOptions {
  /**
   * Runs on every payload before it is delivered (`checkEvent`: parse against the contract schema); a
   * mismatch throws at the publisher (`InvalidEvent`) and reaches no listener. Given in tests and development.
   */
  check?: EventCheck
}

/**
 * In-process event bus. Core modules call each other directly; the bus only
 * notifies observers (the IPC bridges, and core modules that follow news such as
 * `fs:changed`). Channels and payloads are those of the IPC contracts, so a publish
 * of an unknown channel or a wrong payload does not compile. Every scope (a project,
 * or the app) has its own monotonically increasing `seq`.
 */
export class EventBus {
  private readonly listeners = new Emitter<BusEvent>('bus', (event) => event.channel)
  private readonly seqs = new Map<string, number>()

  constructor(private readonly options: EventBusOptions = {}) {}

  publish<C extends BusChannel>(channel: C, payload: BusPayload<C>, projectId?: string): BusEvent {
    this.options.check?.(channel, payload)
    const scope = projectId ?? ''
    const seq = (this.seqs.get(scope) ?? 0) + 1
    this.seqs.set(scope, seq)
    const envelope: EventEnvelope<BusPayload<C>> = projectId === undefined ? { seq, payload } : { projectId, seq, payload }
    const event = { channel, envelope } as BusEvent
    // A failing observer is logged; it breaks neither the publisher nor the other observers.
    this.listeners.emit(event)
    return event
  }

  /** How many observers are subscribed, to any channel. */
  get listenerCount(): number {
    return this.listeners.listenerCount
  }

  /** Every event, in publish order (the IPC bridges forward them to their clients). */
  subscribe(listener: BusListener): Subscription {
    return this.listeners.on(listener)
  }

  /** The events of one channel, with their typed payload. */
  on<C extends BusChannel>(channel: C, listener: (payload: BusPayload<C>, envelope: EventEnvelope<BusPayload<C>>) => void): Subscription {
    return this.listeners.on((event) => {
      if (event.channel === channel) listener(event.envelope.payload as BusPayload<C>, event.envelope as EventEnvelope<BusPayload<C>>)
    })
  }
}
