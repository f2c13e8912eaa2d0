import { subscription, type Subscription } from './disposable'
import { log } from './log'

export type { Subscription } from './disposable'

export type Listener<T> = (value: T) => void

/**
 * The listeners of one kind of news inside the core (permission asks, trust decisions,
 * background processes…). `on` returns the subscription; disposing it removes the listener. `emit` calls every listener
 * registered at that moment, in order; a listener that throws is logged under the
 * emitter's name and neither the others nor the emitting code are disturbed.
 */
export class Emitter<T> {
  private readonly listeners = new Set<Listener<T>>()

  constructor(
    private readonly name: string,
    /** Names what a failing listener was handed, for the log (the bus names the channel). */
    private readonly describe?: (value: T) => string,
  ) {}

  on(listener: Listener<T>): Subscription {
    this.listeners.add(listener)
    return subscription(() => this.listeners.delete(listener))
  }

  emit(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value)
      } catch (error) {
        const what = this.describe ? ` of ${this.describe(value)}` : ''
        log.error(`[${this.name}] a listener${what} failed:`, error)
      }
    }
  }

  /** Drops every listener (the owner is disposed). */
  clear(): void {
    this.listeners.clear()
  }

  /** How many listeners are registered (an owner that disposed its subscriptions leaves none). */
  get listenerCount(): number {
    return this.listeners.size
  }
}
