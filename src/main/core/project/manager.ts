import { randomBytes } from 'node:crypto'
import { existsSync, realpathSync, statSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { ProjectInfo, RecentProject } from '@shared/schema/project'
import type { EventBus } from '../bus/bus'
import type { Storage } from '../storage'
import { ProjectInstance } from './instance'

const OPEN_TABS_KEY = 'workspace.openProjects'

export type ProjectOpenedListener = (instance: ProjectInstance) => void

/** Creates, tracks and disposes the ProjectInstance of every open folder. */
export class ProjectManager {
  private readonly open = new Map<string, ProjectInstance>()
  private readonly untabbed = new Set<string>()
  private readonly openedListeners = new Set<ProjectOpenedListener>()

  constructor(
    private readonly storage: Storage,
    private readonly bus: EventBus,
    /** How often a tab's folder is looked at when nothing prompts a look (tests shorten it). */
    private readonly presenceIntervalMs?: number,
  ) {}

  /**
   * Opens `path` (or returns the instance already open for it). `tab: false` opens
   * it without making it part of the restored workspace (the CLI does this).
   * `worktreeOf`: the folder is a worktree of that open project. It never becomes a tab,
   * is not announced as `project:opened`, inherits the project's trust and closes with it.
   */
  openFolder(path: string, options: { tab?: boolean; worktreeOf?: ProjectInstance } = {}): ProjectInstance {
    const root = canonicalFolder(path)
    for (const instance of this.open.values()) if (instance.root === root) return this.touch(instance)
    const known = this.storage.projects.byRoot(root)
    const parent = options.worktreeOf
    const row = this.storage.projects.touch({
      id: known?.id ?? randomBytes(8).toString('hex'),
      root,
      name: parent ? `${parent.info.name} (${basename(root)})` : basename(root) || root,
    })
    const instance = new ProjectInstance({ id: row.id, root: row.root, name: row.name }, this.bus, parent)
    this.open.set(instance.id, instance)
    if (options.tab === false || parent) this.untabbed.add(instance.id)
    this.persistTabs()
    if (parent) {
      // The worktree's sessions belong to the project: closing it closes them too.
      parent.disposables.addFn(async () => {
        await this.close(instance.id)
      })
    }
    // A tab follows whether its folder is there (the CLI's untabbed project stops its turn on a write instead).
    if (options.tab !== false && !parent) instance.watchPresence(this.presenceIntervalMs)
    for (const listener of [...this.openedListeners]) listener(instance)
    // Workspace-wide news (app scope): every client learns of the new tab.
    if (!parent) this.bus.publish('project:opened', instance.info)
    return instance
  }

  /** How many listeners are told of projects opening. */
  get listenerCount(): number {
    return this.openedListeners.size
  }

  /** Called for every project opened from now on, worktrees' included (services that start per project). */
  onOpened(listener: ProjectOpenedListener): () => void {
    this.openedListeners.add(listener)
    return () => this.openedListeners.delete(listener)
  }

  async close(projectId: string): Promise<boolean> {
    const instance = this.open.get(projectId)
    if (!instance) return false
    this.open.delete(projectId)
    this.untabbed.delete(projectId)
    this.persistTabs()
    try {
      await instance.dispose()
    } finally {
      this.bus.publish('project:closed', { projectId })
    }
    return true
  }

  /**
   * Opens the folder of a tab whose folder went missing at its new place `path`, in the same tab
   * position, and closes the missing one. Its sessions stay with the folder's old record.
   */
  async locate(projectId: string, path: string): Promise<ProjectInstance> {
    const old = this.get(projectId)
    const order = this.list().map((p) => p.id)
    const located = this.openFolder(path)
    if (located.id === old.id) return located
    this.reorder(order.map((id) => (id === old.id ? located.id : id)).filter((id, i, all) => all.indexOf(id) === i))
    await this.close(old.id)
    return located
  }

  /** The open project, or undefined (no error) when it is not open. */
  find(projectId: string): ProjectInstance | undefined {
    return this.open.get(projectId)
  }

  get(projectId: string): ProjectInstance {
    const instance = this.open.get(projectId)
    if (!instance)
      throw new HotaruError(ErrorNames.ProjectNotOpen, { message: `project ${projectId} is not open`, projectId })
    return instance
  }

  /**
   * Puts the open tabs in the given order (ids not open are ignored; open ones
   * missing from `order` keep their place at the end) and remembers it for restore.
   */
  reorder(order: readonly string[]): ProjectInfo[] {
    const sorted = new Map<string, ProjectInstance>()
    for (const id of order) {
      const instance = this.open.get(id)
      if (instance) sorted.set(id, instance)
    }
    for (const [id, instance] of this.open) if (!sorted.has(id)) sorted.set(id, instance)
    this.open.clear()
    for (const [id, instance] of sorted) this.open.set(id, instance)
    this.persistTabs()
    return this.list()
  }

  /** The open projects (tabs), without the worktrees' own projects. */
  list(): ProjectInfo[] {
    return [...this.open.values()]
      .filter((p) => !p.worktreeOf)
      .map((p) => (p.rootState === 'missing' ? { ...p.info, missing: true } : p.info))
  }

  /** Every open project, worktrees' included. */
  instances(): ProjectInstance[] {
    return [...this.open.values()]
  }

  recent(limit = 20): RecentProject[] {
    return this.storage.projects.recent(limit).map((row) => ({
      id: row.id,
      root: row.root,
      name: row.name,
      lastOpenedAt: row.lastOpenedAt,
      exists: existsSync(row.root),
    }))
  }

  forget(projectId: string): boolean {
    return this.storage.projects.remove(projectId)
  }

  /** Reopens the tabs of the previous run; folders that vanished are skipped and reported. */
  restore(): { restored: ProjectInfo[]; missing: string[] } {
    const roots = this.storage.kv.get<string[]>(OPEN_TABS_KEY) ?? []
    const restored: ProjectInfo[] = []
    const missing: string[] = []
    for (const root of roots) {
      try {
        restored.push(this.openFolder(root).info)
      } catch {
        missing.push(root)
      }
    }
    this.persistTabs()
    return { restored, missing }
  }

  /** Disposes every instance but keeps the tab list, so the next start restores it. */
  async dispose(): Promise<void> {
    const instances = [...this.open.values()]
    this.open.clear()
    const results = await Promise.allSettled(instances.map((p) => p.dispose()))
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failures.length > 0) throw new AggregateError(failures.map((f) => f.reason as unknown), 'project disposal failed')
  }

  private touch(instance: ProjectInstance): ProjectInstance {
    this.storage.projects.touch(instance.info)
    return instance
  }

  private persistTabs(): void {
    this.storage.kv.set(
      OPEN_TABS_KEY,
      [...this.open.values()].filter((p) => !this.untabbed.has(p.id) && !p.worktreeOf).map((p) => p.root),
    )
  }
}

function canonicalFolder(path: string): string {
  const abs = resolve(path)
  let root: string
  try {
    root = realpathSync(abs)
  } catch {
    throw new HotaruError(ErrorNames.NotFound, { message: `folder "${path}" does not exist`, path })
  }
  if (!statSync(root).isDirectory())
    throw new HotaruError(ErrorNames.NotADirectory, { message: `"${path}" is not a folder`, path })
  return root
}
