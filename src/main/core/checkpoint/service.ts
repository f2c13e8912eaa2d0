import { join } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { ChangeSummary, Checkpoint, RestoreMode, RestorePreview } from '@shared/schema/checkpoint'
import type { PartOf, Session } from '@shared/schema/session'
import type { EventBus } from '../bus/bus'
import type { Config } from '../config'
import type { ProjectInstance } from '../project/instance'
import type { ProjectManager } from '../project/manager'
import type { SessionStore } from '../session/store'
import { SnapshotEngine, type DiffEntry, type FileVersions, type RestoreResult, type SnapshotResult } from '../snapshot'
import type { CheckpointsRepo } from '../storage/checkpoints-repo'
import type { KvRepo } from '../storage/kv-repo'
import { ascendingId } from '../util/id'
import { log } from '../util/log'

const SERVICE_KEY = 'snapshots'

/** Snapshot storage per project unless `snapshot.quotaBytes` says otherwise. */
export const DEFAULT_QUOTA_BYTES = 2 * 1024 ** 3
/** Over quota, the oldest checkpoints go first, but never the newest ones. */
const MIN_KEPT_CHECKPOINTS = 50

/** Tools whose steps can change files; a step with any of them gets a checkpoint if the tree changed. */
const CHANGING_TOOLS = new Set(['write', 'edit', 'multiedit', 'apply_patch', 'bash', 'memory'])

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
  ) {}

  /** The project's snapshot engine, created with its change feed on first use and disposed with the project. */
  engine(project: ProjectInstance, config?: Config): SnapshotEngine {
    return project.service(SERVICE_KEY, () => {
      const engine = new SnapshotEngine({
        root: project.root,
        storeDir: join(this.dataDir, 'snapshots', project.id),
        maxFileBytes: config?.snapshot?.maxFileBytes,
        extraExcludes: config?.snapshot?.exclude,
        quotaBytes: config?.snapshot?.quotaBytes ?? DEFAULT_QUOTA_BYTES,
      })
      // A restore interrupted by a crash is finished (or rolled back) before anything else.
      const recovered = engine.recover()
      if (recovered.action !== 'none') log.warn(`[checkpoint] ${project.root}: interrupted restore ${recovered.action}`)
      const watching = engine.watch({ onError: (error) => log.warn(`[checkpoint] change feed: ${error.message}`) })
      return {
        engine,
        dispose: async () => {
          await (await watching).dispose()
          await engine.dispose()
        },
      }
    }).engine
  }

  /** Before a user message is processed. */
  beforeMessage(session: Session, messageId: string, config?: Config): Checkpoint | undefined {
    if (config?.snapshot?.enabled === false) return undefined
    return this.capture(session, messageId, 'message', config, false)
  }

  /** After a step: a checkpoint when a file-changing tool ran and the tree differs from the last checkpoint. */
  afterStep(session: Session, messageId: string, tools: readonly string[], config?: Config): Checkpoint | undefined {
    if (config?.snapshot?.enabled === false) return undefined
    if (!tools.some((t) => CHANGING_TOOLS.has(t) || t.includes('__'))) return undefined
    // The change feed reports edits asynchronously and may not have seen this step's writes yet; a
    // shell command can touch anything anywhere. Rescan (unchanged files are not re-hashed).
    return this.capture(session, messageId, 'step', config, true, true)
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
  diff(fromId: string, toId?: string): DiffEntry[] {
    const from = this.get(fromId)
    const engine = this.engine(this.projects.get(from.projectId))
    return engine.diff(from.snapshotId, toId ? this.get(toId).snapshotId : undefined)
  }

  /** Old and new text of one file, for the diff editor. */
  fileVersions(path: string, fromId: string, toId?: string): FileVersions {
    const from = this.get(fromId)
    const engine = this.engine(this.projects.get(from.projectId))
    return engine.fileVersions(path, from.snapshotId, toId ? this.get(toId).snapshotId : undefined)
  }

  preview(checkpointId: string, request: Omit<RestoreRequest, 'expectCurrentId'>): RestorePreview {
    const checkpoint = this.get(checkpointId)
    const messagesRemoved = this.messagesAfter(checkpoint)
    if (request.mode === 'conversation') {
      return { ...emptyPreview(checkpoint, request.mode), messagesRemoved }
    }
    const engine = this.engine(this.projects.get(checkpoint.projectId))
    const preview = engine.preview(checkpoint.snapshotId, this.restoreOptions(checkpoint, request))
    return {
      checkpointId,
      mode: request.mode,
      currentId: preview.currentId,
      writes: preview.writes.map((w) => ({ path: w.path, action: w.action })),
      deletes: preview.deletes,
      unchanged: preview.unchanged,
      conflicts: preview.conflicts,
      userCreated: preview.userCreated,
      skipped: preview.skipped,
      untracked: checkpoint.summary.untracked,
      messagesRemoved: request.mode === 'both' ? messagesRemoved : 0,
    }
  }

  /** Applies a restore; the state before it becomes a checkpoint, so it can be undone. */
  restore(checkpointId: string, request: RestoreRequest): RestoreOutcome {
    const checkpoint = this.get(checkpointId)
    const preview = this.preview(checkpointId, request)
    let result: RestoreResult | undefined
    let undo: Checkpoint | undefined
    if (request.mode !== 'conversation') {
      const project = this.projects.get(checkpoint.projectId)
      const engine = this.engine(project)
      result = engine.restore(checkpoint.snapshotId, {
        ...this.restoreOptions(checkpoint, request),
        expectCurrentId: request.expectCurrentId,
      })
      this.setBaseline(checkpoint.projectId, checkpoint.snapshotId)
      undo = this.record({
        projectId: checkpoint.projectId,
        sessionId: checkpoint.sessionId,
        messageId: checkpoint.messageId,
        snapshotId: result.preRestoreId,
        trigger: 'restore',
        summary: this.summarize(engine, checkpoint.snapshotId, result.preRestoreId, []),
      })
    }
    let messagesRemoved = 0
    if (request.mode !== 'code' && checkpoint.sessionId && checkpoint.messageId && checkpoint.trigger === 'message') {
      messagesRemoved = this.sessions.truncateFrom(checkpoint.sessionId, checkpoint.messageId)
    }
    return { preview, undoCheckpointId: undo?.id ?? null, written: result?.written ?? 0, deleted: result?.deleted ?? 0, messagesRemoved }
  }

  /** A new session with the conversation up to the checkpoint; files are restored to it when `code` is set. */
  fork(checkpointId: string, options: { code?: boolean } = {}): { session: Session; restore?: RestoreOutcome } {
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
    })
    const restore = options.code ? this.restore(checkpointId, { mode: 'code' }) : undefined
    return { session: this.sessions.get(forked.id), ...(restore ? { restore } : {}) }
  }

  /**
   * A change made by the turn review (rejected hunks, a deleted new file): the state before it
   * becomes a `review` checkpoint (restoring it undoes the review), and the state after it is
   * ours, not the user's, so a later restore does not keep it as a user edit.
   */
  aroundReview<T>(session: Session, apply: () => T): { result: T; undoCheckpointId: string | null } {
    const before = this.capture(session, null, 'review', undefined, true)
    const result = apply()
    const engine = this.engine(this.projects.get(session.projectId))
    engine.markAllDirty()
    try {
      this.setBaseline(session.projectId, engine.snapshot().id)
    } catch (error) {
      log.warn(`[checkpoint] snapshot after a review change failed: ${(error as Error).message}`)
    }
    return { result, undoCheckpointId: before?.id ?? null }
  }

  /** Removes snapshot data no checkpoint refers to any more. */
  collectGarbage(projectId: string): { removedBytes: number } {
    const engine = this.engine(this.projects.get(projectId))
    const live = [...this.repo.snapshotIds(projectId), ...this.baselineIds(projectId)]
    const result = engine.gc(live)
    return { removedBytes: result.bytesFreed }
  }

  /** Storage used by the project's snapshots against its quota. */
  usage(projectId: string) {
    return this.engine(this.projects.get(projectId)).usage()
  }

  /** Keeps the store under its quota: the oldest checkpoints are dropped (never the newest 50) and their data collected. */
  private enforceQuota(projectId: string, engine: SnapshotEngine): void {
    if (!engine.usage().overQuota) return
    const count = this.repo.count(projectId)
    if (count <= MIN_KEPT_CHECKPOINTS) return
    const dropped = this.repo.pruneOldest(projectId, Math.max(MIN_KEPT_CHECKPOINTS, Math.floor(count / 2)))
    const freed = this.collectGarbage(projectId).removedBytes
    log.warn(`[checkpoint] over the snapshot quota: dropped ${dropped} oldest checkpoint(s), freed ${freed} bytes`)
  }

  private baselineIds(projectId: string): string[] {
    const id = this.kv.get<string>(`checkpoint.baseline.${projectId}`)
    return id ? [id] : []
  }

  private capture(
    session: Session,
    messageId: string | null,
    trigger: Checkpoint['trigger'],
    config: Config | undefined,
    full: boolean,
    onlyIfChanged = false,
  ): Checkpoint | undefined {
    const project = this.projects.get(session.projectId)
    const engine = this.engine(project, config)
    if (full) engine.markAllDirty()
    let snapshot: SnapshotResult
    try {
      snapshot = engine.snapshot()
    } catch (error) {
      // A failed snapshot must not fail the user's turn; it is visible in the log and the timeline lacks this point.
      log.warn(`[checkpoint] snapshot of ${project.root} failed: ${(error as Error).message}`)
      return undefined
    }
    const previous = this.repo.latest(session.projectId, session.id) ?? this.repo.latest(session.projectId, null)
    this.setBaseline(session.projectId, snapshot.id)
    if (onlyIfChanged && previous?.snapshotId === snapshot.id) return undefined
    if (snapshot.changed) this.enforceQuota(session.projectId, engine)
    return this.record({
      projectId: session.projectId,
      sessionId: session.id,
      messageId,
      snapshotId: snapshot.id,
      trigger,
      summary: this.summarize(engine, previous?.snapshotId, snapshot.id, snapshot.untracked),
    })
  }

  private summarize(
    engine: SnapshotEngine,
    fromId: string | undefined,
    toId: string,
    untracked: { path: string; size: number }[],
  ): ChangeSummary {
    const entries = fromId && fromId !== toId && engine.exists(fromId) ? engine.diff(fromId, toId) : []
    return {
      added: entries.filter((e) => e.status === 'added').length,
      modified: entries.filter((e) => e.status === 'modified').length,
      deleted: entries.filter((e) => e.status === 'deleted').length,
      additions: entries.reduce((n, e) => n + (e.additions ?? 0), 0),
      deletions: entries.reduce((n, e) => n + (e.deletions ?? 0), 0),
      files: entries.slice(0, 200).map((e) => ({ path: e.path, status: e.status })),
      untracked: untracked.map((u) => ({ path: u.path, size: u.size })),
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
