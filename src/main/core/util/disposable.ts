export interface Disposable {
  dispose(): void | Promise<void>
}

/**
 * A listener registration: `dispose` removes the listener at once, and calling it again does nothing.
 * Event APIs return one so an owner can keep it in a `DisposableStore` with its other resources.
 */
export interface Subscription extends Disposable {
  dispose(): void
}

/** A subscription whose `dispose` runs `remove` the first time only. */
export function subscription(remove: () => void): Subscription {
  let active = true
  return {
    dispose() {
      if (!active) return
      active = false
      remove()
    },
  }
}

/**
 * Owns long-lived resources (watchers, processes, subscriptions, timers) and
 * disposes them in reverse order of registration. Failures of one resource do
 * not stop the others; they are collected and reported together.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = []
  private disposed = false

  get isDisposed(): boolean {
    return this.disposed
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      // Disposed at once so nothing leaks; its own failure is secondary to the misuse reported below.
      Promise.resolve()
        .then(() => item.dispose())
        .catch((error: unknown) => console.error('[dispose] a resource added after disposal failed to dispose:', error))
      throw new Error('DisposableStore is already disposed')
    }
    this.items.push(item)
    return item
  }

  /** Disposes one item now and stops owning it. */
  async release(item: Disposable): Promise<void> {
    const index = this.items.indexOf(item)
    if (index < 0) return
    this.items.splice(index, 1)
    await item.dispose()
  }

  addFn(fn: () => void | Promise<void>): void {
    this.add({ dispose: fn })
  }

  async dispose(): Promise<void> {
    if (this.disposed) return
    this.disposed = true
    const errors: unknown[] = []
    for (const item of this.items.splice(0).reverse()) {
      try {
        await item.dispose()
      } catch (error) {
        errors.push(error)
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} resource(s) failed to dispose`)
  }
}
