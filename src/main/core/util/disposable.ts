export interface Disposable {
  dispose(): void | Promise<void>
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
      void item.dispose()
      throw new Error('DisposableStore is already disposed')
    }
    this.items.push(item)
    return item
  }

  /** Takes an item back without disposing it (its owner disposes it now, e.g. to replace it). */
  remove(item: Disposable): boolean {
    const index = this.items.indexOf(item)
    if (index < 0) return false
    this.items.splice(index, 1)
    return true
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
