import { ErrorNames, HotaruError } from '@shared/errors'
import type { ProjectInfo } from '@shared/schema/project'
import type { GitStatus } from '@shared/schema/fs-events'
import type { PortBlock } from '@shared/schema/worktree'
import type { EventBus } from '../bus/bus'
import { DisposableStore, type Disposable } from '../util/disposable'
import { portEnv } from './command-env'
import type { ServiceKey } from './service-key'
import { IgnoreRules } from './ignore-rules'
import { listDirectory, readFile } from './files'
import { createEntry, deleteEntry, renameEntry, writeTextFile } from './fs-ops'
import { GitStatusTracker } from './git-status'
import { ProjectWatcher } from './watcher'
import { RootPresence, type RootState } from './root-presence'

/** Work running inside the project (a turn, a pending ask): stopped with a reason when the project closes. */
export interface ProjectActivity {
  cancel(reason: string): void | Promise<void>
}

/** Why work of a project stopped when its tab closed (recorded on the turn's end). */
export const PROJECT_CLOSED = 'the project was closed'

/**
 * One open project folder. Everything long-lived that belongs to the project
 * (watchers, terminals, MCP servers, agents) registers in `disposables` and ends
 * when the project's tab closes.
 */
export class ProjectInstance {
  readonly disposables = new DisposableStore()
  readonly ignore: IgnoreRules
  private watcher: ProjectWatcher | null = null
  private git: GitStatusTracker | null = null
  private readonly activities = new Set<ProjectActivity>()
  private portBlock: PortBlock | null = null
  private presence: RootPresence | null = null

  constructor(
    readonly info: ProjectInfo,
    /** Where project events go (absent in tests that only need the file operations). */
    private readonly bus?: EventBus,
    /** For a worktree's project: the project whose main tree it was made from (trust and ownership follow it). */
    readonly worktreeOf?: ProjectInstance,
  ) {
    this.ignore = new IgnoreRules(info.root)
  }

  /** The folder whose trust decision applies: the main project's for a worktree. */
  get trustRoot(): string {
    return this.worktreeOf?.trustRoot ?? this.root
  }

  /** A worktree's own block of TCP ports (the worktree service sets it); null for a main tree. */
  get ports(): PortBlock | null {
    return this.portBlock
  }

  setPorts(ports: PortBlock | null): void {
    this.portBlock = ports
  }

  /**
   * Variables that every command started for the project (tool commands, background processes,
   * terminals, hooks, MCP servers) gets on top of its environment: a worktree's ports.
   */
  get commandEnv(): Record<string, string> {
    return portEnv(this.portBlock)
  }

  get id(): string {
    return this.info.id
  }

  get root(): string {
    return this.info.root
  }

  /**
   * A per-project service created on first use and disposed with the project
   * (terminals, language servers…). Modules above `project` declare their own
   * `ServiceKey`s, so the project does not depend on them.
   */
  service<T extends Disposable>(key: ServiceKey<T>, create: (project: ProjectInstance) => T): T {
    if (this.disposables.isDisposed) {
      throw new HotaruError(ErrorNames.ProjectNotOpen, { message: `project ${this.id} is closed`, projectId: this.id })
    }
    const existing = key.of(this)
    if (existing) return existing
    const created = this.disposables.add(create(this))
    key.bind(this, created)
    this.disposables.addFn(() => {
      if (key.of(this) === created) key.unbind(this)
    })
    return created
  }

  /** The per-project service of that kind if it was created (never creates one). */
  existing<T extends Disposable>(key: ServiceKey<T>): T | undefined {
    return key.of(this)
  }

  /** Disposes one per-project service now (a later `service` call creates it anew). */
  async releaseService<T extends Disposable>(key: ServiceKey<T>): Promise<void> {
    const existing = key.of(this)
    if (!existing) return
    key.unbind(this)
    await this.disposables.release(existing)
  }

  /**
   * Registers running work (turns, asks). On close it is cancelled with a reason, and awaited, before any
   * service of the project (tool runtime, MCP servers, watchers) is disposed under it. Returns the unregister.
   */
  track(activity: ProjectActivity): () => void {
    if (this.disposables.isDisposed) {
      throw new HotaruError(ErrorNames.ProjectNotOpen, { message: `project ${this.id} is closed`, projectId: this.id })
    }
    this.activities.add(activity)
    return () => {
      this.activities.delete(activity)
    }
  }

  get isOpen(): boolean {
    return !this.disposables.isDisposed
  }

  /** Whether the folder is at its path, as last seen (`present` until a watch of it started and said otherwise). */
  get rootState(): RootState {
    return this.presence?.current ?? 'present'
  }

  /**
   * Follows whether the folder is at its path (once): `project:presence` on each change, and the
   * tree listed again when it is back (it may have changed, or be another folder, meanwhile).
   */
  watchPresence(intervalMs?: number): RootPresence {
    if (this.presence) return this.presence
    const presence = new RootPresence({
      root: this.root,
      intervalMs,
      onChange: (state) => {
        this.bus?.publish('project:presence', { projectId: this.id, root: this.root, state })
        if (state === 'present') this.bus?.publish('fs:changed', { changes: [], invalidated: [''] }, this.id)
      },
    })
    this.presence = presence
    this.disposables.addFn(() => presence.dispose())
    return presence
  }

  /**
   * Starts the file watcher (once): the tree UI and any module that wants the
   * change feed call this. Not started at open, so a CLI run that never looks at
   * the tree costs no inotify handles.
   */
  watchFiles(): ProjectWatcher {
    if (this.watcher) return this.watcher
    const watcher = new ProjectWatcher({
      root: this.root,
      rules: this.ignore,
      onChanges: (batch) => {
        this.bus?.publish('fs:changed', batch, this.id)
        this.git?.schedule()
        // A deleted root shows as a flood of deletions first: look whether the folder itself went.
        if (batch.changes.some((c) => c.kind === 'deleted')) this.presence?.check()
      },
      onTrouble: () => this.presence?.check(),
    })
    this.watcher = this.disposables.add(watcher)
    return watcher
  }

  /**
   * Current git status; later changes are published as `fs:gitStatus`. `restricted` says whether the
   * folder is restricted at the moment (see `GitStatusTracker`); the first caller's question is kept.
   */
  gitStatus(restricted: () => boolean): Promise<GitStatus> {
    if (!this.git) {
      this.git = this.disposables.add(
        new GitStatusTracker(this.root, (status) => this.bus?.publish('fs:gitStatus', status, this.id), restricted),
      )
      this.watchFiles()
    }
    return this.git.current()
  }

  list(rel: string) {
    this.watchFiles()
    return listDirectory(this.root, rel, this.ignore)
  }

  read(rel: string) {
    return readFile(this.root, rel)
  }

  write(rel: string, content: string, expectedMtimeMs?: number) {
    return writeTextFile(this.root, rel, content, expectedMtimeMs)
  }

  create(rel: string, kind: 'file' | 'dir') {
    return createEntry(this.root, rel, kind, this.ignore)
  }

  rename(from: string, to: string) {
    return renameEntry(this.root, from, to, this.ignore)
  }

  delete(rel: string) {
    return deleteEntry(this.root, rel)
  }

  async dispose(): Promise<void> {
    const activities = [...this.activities]
    this.activities.clear()
    const cancelled = await Promise.allSettled(activities.map(async (activity) => activity.cancel(PROJECT_CLOSED)))
    const failures = cancelled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
    try {
      await this.disposables.dispose()
    } catch (error) {
      failures.push(error)
    }
    if (failures.length > 0) throw new AggregateError(failures, `project ${this.id} did not close cleanly`)
  }
}
