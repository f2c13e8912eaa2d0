import type { EventBus } from './bus/bus'
import type { ProjectConfigs } from './config/project-configs'
import type { ProjectInstance } from './project/instance'
import type { ProjectManager } from './project/manager'
import { isInside } from './trust/paths'
import type { TrustService } from './trust/trust-service'
import { DisposableStore, type Disposable } from './util/disposable'

/**
 * The news a module may react to: projects opening (and, through their `track`, closing), trust decisions and
 * bus events. A module that reacts to them exposes `attach(ctx): Disposable`; the composition root attaches it
 * and disposing the result removes every listener it registered.
 */
export interface AttachContext {
  bus: EventBus
  projects: ProjectManager
  trust: TrustService
  configs: ProjectConfigs
}

/** A module with reactions to project and trust news, owned by whoever attached it. */
export interface Attachable {
  attach(ctx: AttachContext): Disposable
}

/** A listener registration as a Disposable, whether its source hands back an unsubscribe function or a Disposable. */
export function owned(handle: (() => unknown) | Disposable): Disposable {
  if (typeof handle !== 'function') return handle
  return {
    dispose: () => {
      handle()
    },
  }
}

/** Attaches each module in order (listeners of the same news run in that order); disposing ends all of them. */
export function attachAll(ctx: AttachContext, modules: readonly Attachable[]): DisposableStore {
  const store = new DisposableStore()
  for (const module of modules) store.add(module.attach(ctx))
  return store
}

/** The open projects, worktrees included, that a trust decision on `folder` applies to. */
export function projectsUnder(projects: ProjectManager, folder: string): ProjectInstance[] {
  // A worktree's project follows the decision of its main project.
  return projects.instances().filter((project) => isInside(folder, project.trustRoot))
}
