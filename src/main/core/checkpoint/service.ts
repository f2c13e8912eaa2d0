import { join, resolve } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { ChangeSummary, Checkpoint, CheckpointAction, RestoreMode, RestorePreview } from '@shared/schema/checkpoint'
import { promptLine } from '@shared/checkpoint-label'
import type { PartOf, Session } from '@shared/schema/session'
import type { EventBus } from '../bus/bus'
import type { Config } from '../config'
import type { ProjectInstance } from '../project/instance'
import { ServiceKey } from '../project/service-key'
import type { ProjectManager } from '../project/manager'
import type { SessionStore } from '../session/store'
import {
  SnapshotClient,
  SnapshotErrorNames,
  type DiffEntry,
  type FileVersions,
  type PreImage,
  type RestorePreview as EnginePreview,
  type RestoreResult,
  type SnapshotResult,
  type UsageReport,
} from '../snapshot'
import type { CheckpointsRepo } from '../storage/checkpoints-repo'
import type { KvRepo } from '../storage/kv-repo'
import { ascendingId } from '../util/id'
import { log } from '../util/log'
import { detached } from '../util/detached'
import { owned, type AttachContext } from '../attach'
import type { Disposable } from '../util/disposable'
import { insideRoot, PendingCapture, readPreImage } from './pre-images'

/** A project's snapshot engine with what its disposal must wait for. */
interface ProjectSnapshots {
  engine: SnapshotClient
  dispose(): Promise<void>
}

const SERVICE_KEY = new ServiceKey<ProjectSnapshots>('snapshots')

/** Snapshot storage per project unless `snapshot.quotaBytes` says otherwise. */
export const DEFAULT_QUOTA_BYTES = 2 * 1024 ** 3
/** Over quota, the oldest checkpoints go first, but never the newest ones. */
const MIN_KEPT_CHECKPOINTS = 50

/** What a step's tools changed on disk, as far as they know (see `mutatesFiles` on tool definitions). */
export interface StepFileChanges {
  /** Paths the tools wrote and listed (edit, write, multiedit, apply_patch report theirs exactly). */
  paths: string[]
  /** A tool that may change files without listing them ran (bash, MCP and custom tools, a failed edit). */
  unlisted: boolean
  /** The calls that may have changed files: the checkpoint keeps them to say what the step did. */
  calls?: CheckpointAction[]
}

export interface RestoreRequest {
  mode: RestoreMode
  /** Delete files the user created after the agent's last change (default: keep them). */
  includeUserCreated?: boolean
  /** Overwrite files the user edited after the agent's last change (default: keep them). */
  overwriteConflicts?: boolean
  /** The preview's `currentId`: the restore refuses to run if the tree changed since. */
  expectCurrentId?: string
}

export interface RestoreOutcome {
  preview: RestorePreview
  /** The checkpoint of the state before the restore: restoring it undoes this restore. */
  undoCheckpointId: string | null
  written: number
  deleted: number
  messagesRemoved: number
}

/** Whose checkpoint: a session's, or the project's own (`id` null: a merge). */
type CheckpointOwner = Pick<Session, 'projectId'> & { id: string | null }

/** A snapshot taken for a checkpoint: of the whole tree, or (`scope`) of only the paths tools wrote. */
interface Taken {
  id: string
  changed: boolean
  untracked: SnapshotResult['untracked']
  /** Folders the walk could not list. */
  unreadableFolders?: string[]
  scope?: string[]
}

const EMPTY_SUMMARY: ChangeSummary = { added: 0, modified: 0, deleted: 0, additions: 0, deletions: 0, files: [], untracked: [] }

/**
 * The checkpoint timeline: snapshots of the project tree before each user
 * message and after each step that changed files, linked to their session and
 * message; diffs between any two; restore of code and/or conversation, always
 * previewed first and always undoable; fork into a new session.
 */
export class CheckpointService {
  constructor(
    private readonly repo: CheckpointsRepo,
    private readonly projects: ProjectManager,
    private readonly sessions: SessionStore,
    private readonly bus: EventBus,
    private readonly dataDir: string,
    private readonly kv: KvRepo,
    /**
     * The project's own config as its ProjectConfig last loaded it: the engine is built
     * from that, whoever asks first (a turn, a diff over IPC, the CLI), never from a caller's copy.
     */
    private readonly configOf: (project: ProjectInstance) => Config | undefined = () => undefined,
    /**
     * Whether engines watch their tree. Long-lived hosts (the desktop app, `serve`) do; a one-shot
     * CLI command does not: a tree-wide watcher costs seconds and hundreds of MB on a large repo and
     * would be thrown away before it paid off (its snapshots walk the tree or visit marked paths).
     */
    private readonly options: {
      changeFeed: boolean
      /** Snapshots others still need (the bases of the project's worktree copies): never collected. */
      keep?: (projectId: string) => string[]
      /**
       * The host ends after a turn (a one-shot CLI run): a message's walk still running when its
       * top-level turn ends is stopped rather than awaited (see `finishTurn`).
       */
      stopWalksAtTurnEnd?: boolean
      /** See `SnapshotEngineOptions.stoppableWalkStallMs` (tests only). */
      walkStallMs?: number
      /** Throws while a turn runs in one of the project's sessions, in any process: a restore waits for none. */
      refuseWhileRunning?: (projectId: string, what: string) => void
    } = { changeFeed: true },
  ) {}

  /** Per session: a checkpoint that could not be taken, not yet told to the model (see `takeUntold`). */
  private readonly untold = new Map<string, string>()
  /** Checkpoint work queued per project (see `enqueue`). */
  private readonly queues = new Map<string, Promise<void>>()
  /** Captures queued or running per project, collecting pre-images of writes made meanwhile. */
  private readonly captures = new Map<string, Set<PendingCapture>>()
  /** Queued work per project that a write must not run under (restores, reviews, merges, diffs). */
  private readonly exclusive = new Map<string, number>()
  /**
   * Per project whose message walk was stopped: the paths (absolute) tools wrote since. Until the
   * next whole snapshot, step checkpoints hold only these (see `scopedStep`).
   */
  private readonly scoped = new Map<string, Set<string>>()

  /**
   * Where engines watch their tree (the desktop app and `serve`), an open tab's change feed starts with the
   * project, so the watcher's start-up crawl runs in the background before the first message, not during it.
   * The engine is built from the project's config (its snapshot excludes, size limit and quota), so that is read
   * first; an invalid one leaves the start to the first message, which reports it.
   */
  attach({ projects, configs }: AttachContext): Disposable {
    if (!this.options.changeFeed) return { dispose: () => undefined }
    return owned(
      projects.onOpened((project) => {
        configs
          .of(project)
          .load()
          .then(() => {
            if (projects.find(project.id) === project) this.engine(project)
          })
          .catch((error: unknown) => log.warn(`[checkpoint] change feed of project ${project.id} not started: ${(error as Error).message}`))
      }),
    )
  }

  /**
   * The project's snapshot engine, in its own worker thread (created on first use, disposed with
   * the project); with the change feed running inside that worker where this host keeps one.
   */
  engine(project: ProjectInstance): SnapshotClient {
    return project.service(SERVICE_KEY, () => {
      const config = this.configOf(project)
      const engine = new SnapshotClient({
        root: project.root,
        storeDir: join(this.dataDir, 'snapshots', project.id),
        maxFileBytes: config?.snapshot?.maxFileBytes,
        extraExcludes: config?.snapshot?.exclude,
        quotaBytes: config?.snapshot?.quotaBytes ?? DEFAULT_QUOTA_BYTES,
        ...(this.options.walkStallMs ? { stoppableWalkStallMs: this.options.walkStallMs } : {}),
        // Walks yield the CPU to the main thread, in every host: where it serves a UI (the desktop
        // app, `serve`) that keeps it responsive, and in a one-shot `run` the main thread carries the
        // turn, which a walk competing with it for the cores only slowed down (on 2 cores, a 12-step
        // turn in a 40k-file tree took 8% longer, a small one 4%).
        background: true,
        onLog: (level, message) => log[level](`[checkpoint] ${project.root}: ${message}`),
      })
      // A restore interrupted by a crash is finished (or rolled back) before anything else: the
      // worker answers calls in order, so this runs first.
      const recovered = engine.recover().then(
        (result) => {
          if (result.action !== 'none') log.warn(`[checkpoint] ${project.root}: interrupted restore ${result.action}`)
        },
        (error: unknown) => log.warn(`[checkpoint] ${project.root}: recovery failed: ${(error as Error).message}`),
      )
      const watching = this.options.changeFeed
        ? engine.watch(() => project.watchFiles().openFeed()).catch((error: unknown) => log.warn(`[checkpoint] change feed of ${project.root}: ${(error as Error).message}`))
        : undefined
      return {
        engine,
        dispose: async () => {
          await recovered
          // A one-shot host is ending: a message walk still running is not awaited (see `finishTurn`).
          if (this.options.stopWalksAtTurnEnd) engine.stopWalks()
          await this.queues.get(project.id)
          await engine.dispose()
          await watching
        },
      }
    }).engine
  }

  /**
   * Before a user message is processed. Runs in the snapshot worker; the caller need not wait
   * (the model request goes out meanwhile) but file-changing tools must: see `idle`.
   */
  beforeMessage(session: Session, messageId: string, config?: Config, text = ''): Promise<Checkpoint | undefined> {
    if (config?.snapshot?.enabled === false) return Promise.resolve(undefined)
    const prompt = promptLine(text)
    return this.enqueueCapture(session.projectId, (pending) => this.capture(session, messageId, 'message', config, 'walk', false, pending, prompt ? { prompt } : {}))
  }

  /** After a step: a checkpoint when its tools changed files and the tree differs from the last checkpoint. */
  afterStep(session: Session, messageId: string, changes: StepFileChanges, config?: Config): Promise<Checkpoint | undefined> {
    if (config?.snapshot?.enabled === false) return Promise.resolve(undefined)
    if (changes.paths.length === 0 && !changes.unlisted) return Promise.resolve(undefined)
    const about = changes.calls?.length ? { actions: changes.calls.map((c) => (c.subject === undefined ? { tool: c.tool } : c)) } : {}
    return this.enqueueCapture(session.projectId, (pending) => this.capture(session, messageId, 'step', config, changes, true, pending, about))
  }

  /** Resolves when the project's queued checkpoint work is done (a file-changing tool waits for it). */
  async idle(projectId: string): Promise<void> {
    await this.queues.get(projectId)
  }

  /**
   * The end of a turn: resolves once its checkpoints are recorded. Where the host ends after its
   * turn (`stopWalksAtTurnEnd`), a top-level turn first stops its message's walk if it is still
   * running: nothing needs that snapshot whole any more (a tool that did waited for it), so the
   * message's checkpoint holds the pre-images of the paths its tools wrote instead, and what the
   * walk hashed is kept for the next one. A subagent's turn never stops it: its caller goes on.
   */
  async finishTurn(projectId: string, topLevel: boolean): Promise<void> {
    this.turnEnding(projectId, topLevel)
    await this.idle(projectId)
  }

  /**
   * The model ended its turn (what its edits are still owed may yet reopen it): where the host ends after its turn
   * (`stopWalksAtTurnEnd`), a top-level turn's message walk still running stops now rather than at `finishTurn`, so
   * it does not take the CPU from the language servers checking those edits meanwhile.
   */
  turnEnding(projectId: string, topLevel: boolean): void {
    if (this.options.stopWalksAtTurnEnd && topLevel && this.queues.has(projectId)) this.engine(this.projects.get(projectId)).stopWalks()
  }

  /**
   * Before a tool writes exactly `paths` (absolute): when only captures are queued, what those
   * paths hold now is kept for each of them and the tool need not wait for the tree walk; their
   * snapshots come out as if the write happened after them. Anything else queued (a restore, a
   * review), or a path that cannot be kept (a link, a large file): waits like any other write.
   */
  async beforeWrite(projectId: string, paths: string[]): Promise<void> {
    if (!this.queues.has(projectId)) return
    if ((this.exclusive.get(projectId) ?? 0) > 0) return this.idle(projectId)
    const root = this.projects.get(projectId).root
    const open = (): PendingCapture[] => [...(this.captures.get(projectId) ?? [])]
    const wanted = [...new Set(paths)].filter((path) => insideRoot(root, path) && open().some((c) => c.wants(path)))
    const images = await Promise.all(wanted.map((path) => readPreImage(path)))
    if (images.some((image) => image === undefined) || (this.exclusive.get(projectId) ?? 0) > 0) return this.idle(projectId)
    // Synchronously with the check above: a capture still open now takes its pre-images after the walk.
    for (const capture of open()) for (const image of images) if (image) capture.keep(image)
  }

  list(projectId: string, sessionId?: string): Checkpoint[] {
    return this.repo.list(projectId, sessionId)
  }

  /** The snapshot the tree was last left at by us (a step or a restore): the timeline's "you are here". */
  position(projectId: string): string | null {
    return this.kv.get<string>(`checkpoint.baseline.${projectId}`) ?? null
  }

  get(id: string): Checkpoint {
    const exact = this.repo.get(id)
    if (exact) return exact
    const matches = this.repo.byPrefix(id)
    if (matches.length === 1 && matches[0]) return matches[0]
    throw new HotaruError(ErrorNames.NotFound, {
      message: matches.length === 0 ? `no checkpoint "${id}"` : `"${id}" matches several checkpoints`,
      checkpointId: id,
    })
  }

  /** Files that differ between two checkpoints, or a checkpoint and the working tree. */
  diff(fromId: string, toId?: string): Promise<DiffEntry[]> {
    const from = this.get(fromId)
    const to = toId ? this.get(toId) : undefined
    const scope = scopeOf(from, to)
    return this.enqueue(from.projectId, async () => {
      const entries = await this.engine(this.projects.get(from.projectId)).diff(from.snapshotId, to?.snapshotId)
      return scope ? entries.filter((e) => scope.has(e.path)) : entries
    })
  }

  /** Old and new text of one file, for the diff editor. */
  fileVersions(path: string, fromId: string, toId?: string): Promise<FileVersions> {
    const from = this.get(fromId)
    const to = toId ? this.get(toId).snapshotId : undefined
    return this.enqueue(from.projectId, () => this.engine(this.projects.get(from.projectId)).fileVersions(path, from.snapshotId, to))
  }

  preview(checkpointId: string, request: Omit<RestoreRequest, 'expectCurrentId'>): Promise<RestorePreview> {
    const checkpoint = this.get(checkpointId)
    return this.enqueue(checkpoint.projectId, () => this.previewNow(checkpoint, request))
  }

  /** Applies a restore; the state before it becomes a checkpoint, so it can be undone. */
  restore(checkpointId: string, request: RestoreRequest): Promise<RestoreOutcome> {
    const checkpoint = this.get(checkpointId)
    return this.enqueue(checkpoint.projectId, () => this.restoreNow(checkpoint, request))
  }

  /** A new session with the conversation up to the checkpoint; files are restored to it when `code` is set. */
  async fork(checkpointId: string, options: { code?: boolean } = {}): Promise<{ session: Session; restore?: RestoreOutcome }> {
    const checkpoint = this.get(checkpointId)
    if (!checkpoint.sessionId) throw new HotaruError(ErrorNames.InvalidPayload, { message: 'this checkpoint belongs to no session' })
    const source = this.sessions.get(checkpoint.sessionId)
    const forked = this.sessions.create({
      projectId: source.projectId,
      agent: source.agent,
      model: source.model,
      title: `${source.title} (fork)`,
    })
    for (const { info, parts } of this.sessions.messages(source.id)) {
      if (checkpoint.messageId && info.id >= checkpoint.messageId && checkpoint.trigger === 'message') break
      const copy = this.sessions.addMessage({ ...info, id: undefined, sessionId: forked.id })
      for (const part of parts) {
        const { id: _id, ...rest } = part
        const added = this.sessions.addPart<PartOf<typeof part.type>>({ ...rest, sessionId: forked.id, messageId: copy.id } as never)
        if (added.type === 'text' || added.type === 'reasoning') this.sessions.endPart(added.id)
      }
      if (checkpoint.messageId && info.id === checkpoint.messageId) break
    }
    this.record({
      projectId: checkpoint.projectId,
      sessionId: forked.id,
      messageId: null,
      snapshotId: checkpoint.snapshotId,
      trigger: 'fork',
      summary: EMPTY_SUMMARY,
      ...(checkpoint.scope ? { scope: checkpoint.scope } : {}),
    })
    const restore = options.code ? await this.restore(checkpointId, { mode: 'code' }) : undefined
    return { session: this.sessions.get(forked.id), ...(restore ? { restore } : {}) }
  }

  /**
   * A change made by the turn review (rejected hunks, a deleted new file): the state before it
   * becomes a `review` checkpoint (restoring it undoes the review), and the state after it is
   * ours, not the user's, so a later restore does not keep it as a user edit.
   */
  aroundReview<T>(session: Session, apply: () => Promise<T>): Promise<{ result: T; undoCheckpointId: string | null }> {
    return this.around(session, 'review', apply)
  }

  /**
   * A worktree merged into the project's main tree: the state before becomes a `merge` checkpoint
   * (restoring it undoes the merge) and the merged files count as ours, like a review change.
   */
  aroundMerge<T>(projectId: string, apply: () => Promise<T>): Promise<{ result: T; undoCheckpointId: string | null }> {
    return this.around({ projectId, id: null }, 'merge', apply)
  }

  private around<T>(owner: CheckpointOwner, trigger: 'review' | 'merge', apply: () => Promise<T>): Promise<{ result: T; undoCheckpointId: string | null }> {
    return this.enqueue(owner.projectId, async () => {
      const before = await this.capture(owner, null, trigger, undefined, 'walk')
      const result = await apply()
      try {
        const engine = this.engine(this.projects.get(owner.projectId))
        await engine.markAllDirty()
        this.setBaseline(owner.projectId, (await engine.snapshot()).id)
      } catch (error) {
        log.warn(`[checkpoint] snapshot after a ${trigger} change failed: ${(error as Error).message}`)
      }
      return { result, undoCheckpointId: before?.id ?? null }
    })
  }

  /** Removes snapshot data no checkpoint refers to any more. */
  collectGarbage(projectId: string): Promise<{ removedBytes: number }> {
    return this.enqueue(projectId, () => this.collectGarbageNow(projectId))
  }

  /** Storage used by the project's snapshots against its quota. */
  usage(projectId: string): Promise<UsageReport> {
    return this.enqueue(projectId, () => this.engine(this.projects.get(projectId)).usage())
  }

  /** A capture in the project's queue, open for pre-images (see `beforeWrite`) from now until its walk is done. */
  private enqueueCapture<T>(projectId: string, work: (pending: PendingCapture) => Promise<T>): Promise<T> {
    const pending = new PendingCapture()
    let open = this.captures.get(projectId)
    if (!open) this.captures.set(projectId, (open = new Set()))
    open.add(pending)
    const settled = (): void => {
      pending.close()
      open.delete(pending)
      if (open.size === 0 && this.captures.get(projectId) === open) this.captures.delete(projectId)
    }
    return this.enqueue(projectId, () => work(pending).finally(settled), false)
  }

  /**
   * Runs checkpoint work of a project in order: a step's checkpoint never overtakes the message
   * checkpoint before it, and a restore never runs in the middle of a capture. `exclusive` work
   * (everything but captures) also holds back writes that would otherwise go ahead (`beforeWrite`).
   */
  private enqueue<T>(projectId: string, work: () => Promise<T>, exclusive = true): Promise<T> {
    if (exclusive) this.exclusive.set(projectId, (this.exclusive.get(projectId) ?? 0) + 1)
    const previous = this.queues.get(projectId) ?? Promise.resolve()
    const next = previous.then(work, work)
    if (exclusive) {
      const release = (): void => {
        const left = (this.exclusive.get(projectId) ?? 1) - 1
        if (left > 0) this.exclusive.set(projectId, left)
        else this.exclusive.delete(projectId)
      }
      detached('checkpoint queue', next.then(release, release))
    }
    const tail = next.then(
      () => undefined,
      () => undefined,
    )
    this.queues.set(projectId, tail)
    detached('checkpoint queue', tail.then(() => {
      if (this.queues.get(projectId) === tail) this.queues.delete(projectId)
    }))
    return next
  }

  private async previewNow(checkpoint: Checkpoint, request: Omit<RestoreRequest, 'expectCurrentId'>): Promise<RestorePreview> {
    const messagesRemoved = this.messagesAfter(checkpoint)
    if (request.mode === 'conversation') {
      return { ...emptyPreview(checkpoint, request.mode), messagesRemoved }
    }
    const engine = this.engine(this.projects.get(checkpoint.projectId))
    const preview = await engine.preview(checkpoint.snapshotId, this.restoreOptions(checkpoint, request))
    return this.describePreview(checkpoint, request, preview)
  }

  private async restoreNow(checkpoint: Checkpoint, request: RestoreRequest): Promise<RestoreOutcome> {
    this.options.refuseWhileRunning?.(checkpoint.projectId, request.mode === 'conversation' ? 'restore the conversation' : 'restore files')
    let result: RestoreResult | undefined
    let undo: Checkpoint | undefined
    let preview: RestorePreview
    if (request.mode === 'conversation') {
      preview = await this.previewNow(checkpoint, request)
    } else {
      const project = this.projects.get(checkpoint.projectId)
      const engine = this.engine(project)
      // One pass: the engine previews (the undo snapshot) and applies; no separate preview walk.
      result = await engine.restore(checkpoint.snapshotId, {
        ...this.restoreOptions(checkpoint, request),
        expectCurrentId: request.expectCurrentId,
      })
      preview = this.describePreview(checkpoint, request, result.preview)
      // The restore's preview walked the whole tree: captures from now on are whole again.
      this.scoped.delete(checkpoint.projectId)
      this.setBaseline(checkpoint.projectId, checkpoint.snapshotId)
      undo = this.record({
        projectId: checkpoint.projectId,
        sessionId: checkpoint.sessionId,
        messageId: checkpoint.messageId,
        snapshotId: result.preRestoreId,
        trigger: 'restore',
        summary: await this.summarize(engine, checkpoint, { id: result.preRestoreId, untracked: [] }),
      })
    }
    let messagesRemoved = 0
    if (request.mode !== 'code' && checkpoint.sessionId && checkpoint.messageId && checkpoint.trigger === 'message') {
      messagesRemoved = this.sessions.truncateFrom(checkpoint.sessionId, checkpoint.messageId)
    }
    return { preview, undoCheckpointId: undo?.id ?? null, written: result?.written ?? 0, deleted: result?.deleted ?? 0, messagesRemoved }
  }

  private describePreview(
    checkpoint: Checkpoint,
    request: Omit<RestoreRequest, 'expectCurrentId'>,
    preview: EnginePreview,
  ): RestorePreview {
    return {
      checkpointId: checkpoint.id,
      mode: request.mode,
      currentId: preview.currentId,
      writes: preview.writes.map((w) => ({ path: w.path, action: w.action })),
      deletes: preview.deletes,
      unchanged: preview.unchanged,
      conflicts: preview.conflicts,
      userCreated: preview.userCreated,
      skipped: preview.skipped,
      untracked: checkpoint.summary.untracked,
      ...(checkpoint.summary.unreadableFolders ? { unreadableFolders: checkpoint.summary.unreadableFolders } : {}),
      messagesRemoved: request.mode === 'both' ? this.messagesAfter(checkpoint) : 0,
    }
  }

  private async collectGarbageNow(projectId: string): Promise<{ removedBytes: number }> {
    const engine = this.engine(this.projects.get(projectId))
    const live = [...this.repo.snapshotIds(projectId), ...this.baselineIds(projectId), ...(this.options.keep?.(projectId) ?? [])]
    const result = await engine.gc(live)
    return { removedBytes: result.bytesFreed }
  }

  /** Keeps the store under its quota: the oldest checkpoints are dropped (never the newest 50) and their data collected. */
  private async enforceQuota(projectId: string, engine: SnapshotClient): Promise<void> {
    if (!(await engine.usage()).overQuota) return
    const count = this.repo.count(projectId)
    if (count <= MIN_KEPT_CHECKPOINTS) return
    const dropped = this.repo.pruneOldest(projectId, Math.max(MIN_KEPT_CHECKPOINTS, Math.floor(count / 2)))
    const freed = (await this.collectGarbageNow(projectId)).removedBytes
    log.warn(`[checkpoint] over the snapshot quota: dropped ${dropped} oldest checkpoint(s), freed ${freed} bytes`)
  }

  private baselineIds(projectId: string): string[] {
    const id = this.kv.get<string>(`checkpoint.baseline.${projectId}`)
    return id ? [id] : []
  }

  /**
   * Takes the snapshot and records the checkpoint. `walk`: what the engine decides (the feed's
   * increments when live, else the whole tree). Step changes: exactly the listed paths when every
   * tool listed what it wrote; after an unlisted change, the feed once it has caught up, or the
   * whole tree without one.
   */
  private async capture(
    session: CheckpointOwner,
    messageId: string | null,
    trigger: Checkpoint['trigger'],
    config: Config | undefined,
    changes: 'walk' | StepFileChanges,
    onlyIfChanged = false,
    pending?: PendingCapture,
    about: Pick<Checkpoint, 'actions' | 'prompt'> = {},
  ): Promise<Checkpoint | undefined> {
    const project = this.projects.get(session.projectId)
    let taken: Taken
    let engine: SnapshotClient
    try {
      engine = this.engine(project)
      taken = (await this.scopedStep(engine, project, changes, pending)) ?? (await this.takeWhole(engine, project.id, trigger, changes, pending))
    } catch (error) {
      // A failed snapshot must not fail the user's turn, but nobody may be left believing there is a restore point.
      this.failed(session, project, trigger, error)
      return undefined
    }
    const previous = this.repo.latest(session.projectId, session.id) ?? this.repo.latest(session.projectId, null)
    this.setBaseline(session.projectId, taken.id)
    if (onlyIfChanged && previous?.snapshotId === taken.id) return undefined
    try {
      if (taken.changed) await this.enforceQuota(session.projectId, engine)
      return this.record({
        projectId: session.projectId,
        sessionId: session.id,
        messageId,
        snapshotId: taken.id,
        trigger,
        summary: await this.summarize(engine, previous, taken),
        ...(taken.scope ? { scope: taken.scope } : {}),
        ...about,
      })
    } catch (error) {
      this.failed(session, project, trigger, error)
      return undefined
    }
  }

  /**
   * A checkpoint that could not be taken is said where each reader looks: the project's notices
   * (the UI's notices area, `hotaru run`'s stderr) and, through `takeUntold`, the next result of a
   * tool that changes files in that session, so the model does not promise an undo that is not there.
   */
  private failed(session: CheckpointOwner, project: ProjectInstance, trigger: Checkpoint['trigger'], error: unknown): void {
    const message = noRestorePoint(trigger, error, this.dataDir)
    log.warn(`[checkpoint] ${project.root}: ${message}`)
    this.bus.publish('project:notice', { projectId: project.id, level: 'warning', message }, project.id)
    if (session.id !== null) this.untold.set(session.id, message)
  }

  /** The last checkpoint failure of the session not told to the model yet (then forgotten). */
  takeUntold(sessionId: string): string | undefined {
    const message = this.untold.get(sessionId)
    this.untold.delete(sessionId)
    return message
  }

  /**
   * A snapshot of the whole tree. The message's walk may be stopped (`finishTurn`): then the
   * checkpoint holds what the paths tools wrote meanwhile held before (their pre-images).
   */
  private async takeWhole(
    engine: SnapshotClient,
    projectId: string,
    trigger: Checkpoint['trigger'],
    changes: 'walk' | StepFileChanges,
    pending?: PendingCapture,
  ): Promise<Taken> {
    if (changes !== 'walk') {
      if (changes.paths.length > 0) await engine.markDirty(changes.paths)
      if (changes.unlisted) await engine.settleAfterUnlistedChange()
    }
    let snapshot: SnapshotResult
    try {
      // Only a message's walk: a step's, a review's or a merge's snapshot is needed whole.
      snapshot = await engine.snapshot({ trustMarks: changes !== 'walk', stoppable: trigger === 'message' })
    } catch (error) {
      if (!(error instanceof HotaruError && error.name === SnapshotErrorNames.WalkStopped)) throw error
      return this.takeScoped(engine, projectId, pending?.close() ?? [])
    }
    // The walk's findings; a snapshot with pre-images put back below has no walk of its own.
    const unreadableFolders = snapshot.stats.errors.filter((e) => e.folder).map((e) => e.path)
    // Paths tools wrote while the walk ran are put back as they were before (see `beforeWrite`).
    const preImages = pending?.close() ?? []
    if (preImages.length > 0) snapshot = await engine.withPreImages(preImages)
    this.scoped.delete(projectId)
    return { id: snapshot.id, changed: snapshot.changed, untracked: snapshot.untracked, ...(unreadableFolders.length > 0 ? { unreadableFolders } : {}) }
  }

  /**
   * After a stopped walk, a step that listed its writes gets a checkpoint of the paths written
   * since the walk began as they are now (or as a pre-image kept for a later write says they were).
   * `undefined`, for a whole snapshot instead: no walk was stopped, the step changed files it did
   * not list, or a path cannot be kept (a link, a large file).
   */
  private async scopedStep(engine: SnapshotClient, project: ProjectInstance, changes: 'walk' | StepFileChanges, pending?: PendingCapture): Promise<Taken | undefined> {
    const written = this.scoped.get(project.id)
    if (!written || changes === 'walk' || changes.unlisted) return undefined
    const paths = new Set(written)
    for (const path of changes.paths) {
      const abs = resolve(project.root, path)
      if (insideRoot(project.root, abs)) paths.add(abs)
    }
    // Read before the pending capture closes: a write meanwhile leaves its pre-image there, which wins.
    const now = await Promise.all([...paths].map((path) => readPreImage(path)))
    if (now.some((image) => image === undefined)) return undefined
    const images = new Map(now.map((image) => [(image as PreImage).path, image as PreImage]))
    for (const image of pending?.close() ?? []) images.set(image.path, image)
    return this.takeScoped(engine, project.id, [...images.values()])
  }

  private async takeScoped(engine: SnapshotClient, projectId: string, images: PreImage[]): Promise<Taken> {
    const { id, paths } = await engine.scopedSnapshot(images)
    const written = this.scoped.get(projectId) ?? new Set<string>()
    for (const image of images) written.add(image.path)
    this.scoped.set(projectId, written)
    return { id, changed: true, untracked: [], scope: paths }
  }

  /** Changes from `from` to `to`; where either holds only some paths, changes of those paths only. */
  private async summarize(engine: SnapshotClient, from: Pick<Checkpoint, 'snapshotId' | 'scope'> | undefined, to: Pick<Taken, 'id' | 'untracked' | 'scope' | 'unreadableFolders'>): Promise<ChangeSummary> {
    const fromId = from?.snapshotId
    const scope = scopeOf(from, to)
    const all = fromId && fromId !== to.id && (await engine.exists(fromId)) ? await engine.diff(fromId, to.id) : []
    const entries = scope ? all.filter((e) => scope.has(e.path)) : all
    return {
      added: entries.filter((e) => e.status === 'added').length,
      modified: entries.filter((e) => e.status === 'modified').length,
      deleted: entries.filter((e) => e.status === 'deleted').length,
      additions: entries.reduce((n, e) => n + (e.additions ?? 0), 0),
      deletions: entries.reduce((n, e) => n + (e.deletions ?? 0), 0),
      files: entries.slice(0, 200).map((e) => ({
        path: e.path,
        status: e.status,
        ...(e.additions === undefined ? {} : { additions: e.additions, deletions: e.deletions ?? 0 }),
      })),
      untracked: to.untracked.map((u) => ({ path: u.path, size: u.size, reason: u.reason })),
      ...(to.unreadableFolders ? { unreadableFolders: to.unreadableFolders } : {}),
    }
  }

  private record(input: Omit<Checkpoint, 'id' | 'createdAt'>): Checkpoint {
    const checkpoint: Checkpoint = { ...input, id: ascendingId('cp'), createdAt: Date.now() }
    this.repo.insert(checkpoint)
    this.bus.publish('checkpoint:created', checkpoint, checkpoint.projectId)
    return checkpoint
  }

  /**
   * The tree as our last action left it (an agent step or a restore): whatever differs
   * from it now was done by the user, and a restore keeps it unless told otherwise.
   */
  private setBaseline(projectId: string, snapshotId: string): void {
    this.kv.set(`checkpoint.baseline.${projectId}`, snapshotId)
  }

  private restoreOptions(checkpoint: Checkpoint, request: Omit<RestoreRequest, 'mode' | 'expectCurrentId'>) {
    const baselineId = this.kv.get<string>(`checkpoint.baseline.${checkpoint.projectId}`)
    return {
      baselineId,
      // A checkpoint of some paths restores those, and leaves the rest of the tree alone.
      ...(checkpoint.scope ? { paths: checkpoint.scope } : {}),
      includeUserCreated: request.includeUserCreated ?? false,
      overwriteConflicts: request.overwriteConflicts ?? false,
    }
  }

  private messagesAfter(checkpoint: Checkpoint): number {
    if (!checkpoint.sessionId || !checkpoint.messageId || checkpoint.trigger !== 'message') return 0
    const messages = this.sessions.messages(checkpoint.sessionId)
    return messages.filter((m) => m.info.id >= (checkpoint.messageId as string)).length
  }
}

/** The paths two checkpoints' changes are limited to (either holds only some), or undefined: all. */
function scopeOf(a: { scope?: string[] } | undefined, b: { scope?: string[] } | undefined): Set<string> | undefined {
  if (!a?.scope && !b?.scope) return undefined
  return new Set([...(a?.scope ?? []), ...(b?.scope ?? [])])
}

function emptyPreview(checkpoint: Checkpoint, mode: RestoreMode): RestorePreview {
  return {
    checkpointId: checkpoint.id,
    mode,
    currentId: null,
    writes: [],
    deletes: [],
    unchanged: 0,
    conflicts: [],
    userCreated: [],
    skipped: [],
    untracked: [],
    messagesRemoved: 0,
  }
}

/** What a failed checkpoint means for the user and what to do, with the failure (ENOSPC names its file). */
export function noRestorePoint(trigger: Checkpoint['trigger'], error: unknown, dataDir: string): string {
  const which = trigger === 'message' ? 'before this message' : trigger === 'step' ? 'after this step' : `for this ${trigger}`
  const code = (error as NodeJS.ErrnoException).code
  const reason = (error as Error).message
  const full = code === 'ENOSPC' || code === 'EDQUOT' || /no space left|disk is full|ENOSPC/i.test(reason)
  const next = full
    ? ` The disk holding the data folder ${dataDir} is full: free space there, or move the data folder with HOTARU_DATA_DIR.`
    : ` Check that the data folder ${dataDir} is writable.`
  return `No restore point ${which}: the checkpoint could not be taken (${reason}). Changes made now cannot be undone from the checkpoint timeline.${next}`
}
