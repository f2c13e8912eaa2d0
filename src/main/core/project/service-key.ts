import type { Disposable } from '../util/disposable'

/**
 * Names one kind of per-project service and carries its type, so `project.service(key, …)` returns
 * a `T` without a cast. Each key holds the instances made under it, one per project; the project
 * decides when one is made and disposes it with itself. Declare a key once, next to the module that
 * owns the service (`const TERMINALS = new ServiceKey<TerminalHost>('pty.terminals')`).
 */
export class ServiceKey<T extends Disposable> {
  private readonly instances = new WeakMap<object, T>()

  /** `name` is for people reading logs and errors; two keys with one name are still two kinds. */
  constructor(readonly name: string) {}

  /** The instance made for `owner` under this key, if any (used by `ProjectInstance`). */
  of(owner: object): T | undefined {
    return this.instances.get(owner)
  }

  /** Records the instance made for `owner` (used by `ProjectInstance`). */
  bind(owner: object, instance: T): void {
    this.instances.set(owner, instance)
  }

  /** Forgets the instance of `owner` (used by `ProjectInstance` when it releases or disposes it). */
  unbind(owner: object): void {
    this.instances.delete(owner)
  }
}
