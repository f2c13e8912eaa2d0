import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs'
import { mkdir, readdir, rm, rmdir, unlink } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'
import { SnapshotErrorNames, type FileVersions } from '../snapshot'
import type { MergeFile, MergePreview, MergeResolution, MergeResult, Worktree, WorktreeBase, WorktreeDiff } from '@shared/schema/worktree'
import type { AgentService } from '../agent/service'
import type { EventBus } from '../bus/bus'
import type { Subscription } from '../util/disposable'
import type { CheckpointService } from '../checkpoint/service'
import type { ProjectConfigs } from '../config/project-configs'
import { isAlive } from '../process/tree'
import type { ProjectInstance } from '../project/instance'
import type { ProjectManager } from '../project/manager'
import type { SessionStore } from '../session/store'

import type { Storage, WorktreeRow } from '../storage'
import { detached } from '../util/detached'
import { log } from '../util/log'
import { copyInto, deleteFrom, readSide, sameContent, writeInto } from './disk'
import { fileChange, renameOf } from './file-change'
import { mergeHunks, type HunkMerge } from './hunk-merge'
import { addWorktree, defaultBranchCommit, git, gitRepoOf } from './git'
import { copyMissing, includedInRepo, includePatterns } from './include'
import { branchName, generateName, worktreesFolder } from './names'
import { findFreeBlock, portBlock } from './ports'
import { changesFingerprint, classifyThreeWay, pathsOf, type SideChange } from './three-way'
import { copyTrees, gitTrees, type MergeTrees } from './trees'

export interface WorktreeDeps {
  storage: Storage
  projects: ProjectManager
  configs: ProjectConfigs
  checkpoints: CheckpointService
  agents: AgentService
  sessions: SessionStore
  bus: EventBus
  dataDir: string
}

export interface MergeOptions {
  /** Leave files both sides changed as the main tree has them. */
  skipConflicts?: boolean
  /** Write the worktree's version of files both sides changed. */
  overwriteConflicts?: boolean
  /** How the user settled conflicts, one per path; the others follow the options above. */
  resolutions?: readonly MergeResolution[]
}

/** A merge's plan with what it needs to write: the worktree's changes, and the files merged hunk by hunk. */
interface Plan {
  preview: MergePreview
  fingerprint: string
  worktreeChanges: Map<string, SideChange>
  hunks: Map<string, HunkMerge>
}

/**
 * What `mergedState` records: the worktree's changes when it was merged (their fingerprint) and, for files
 * the main tree holds in another version than the worktree's (merged hunk by hunk, resolved by the user),
 * the hash of what the merge left there. Separated by a character no fingerprint ends with.
 */
const STATE_SEPARATOR = '\u0001'

function mergedStateOf(fingerprint: string, expected: ReadonlyMap<string, string>): string {
  return expected.size === 0 ? fingerprint : `${fingerprint}${STATE_SEPARATOR}${JSON.stringify(Object.fromEntries(expected))}`
}

function parseMergedState(state: string): { fingerprint: string; expected: Map<string, string> } {
  const at = state.lastIndexOf(STATE_SEPARATOR)
  if (at < 0) return { fingerprint: state, expected: new Map() }
  const parsed: unknown = JSON.parse(state.slice(at + 1))
  const expected = new Map(Object.entries(parsed as Record<string, string>))
  return { fingerprint: state.slice(0, at), expected }
}

/** Worktree changes since the base with a fingerprint of their content (merged = unchanged since the merge). */
interface Changes {
  files: SideChange[]
  fingerprint: string
}

/**
 * Parallel checkout for `git worktree add`: four writer processes (git ≥ 2.32; an older git ignores
 * the key and checks out from one). Creating the files is kernel work; docs/decisions/worktrees.md
 * (Cost) has the measurements behind four.
 */
const CHECKOUT_CONFIG = ['-c', 'checkout.workers=4']

/** Status refreshes of a worktree are batched: a streaming turn publishes many session events. */
const CHANGED_DEBOUNCE_MS = 250

function notFound(name: string): HotaruError {
  return new HotaruError(ErrorNames.NotFound, { message: `no worktree "${name}" in this project`, name })
}

function sha256(data: Buffer | null): string {
  return data === null ? '-' : createHash('sha256').update(data).digest('hex')
}

/**
 * Worktrees of projects: each is a folder of its own (a git worktree on `hotaru/<name>`, or a copy
 * of a non-git folder made from a checkpoint snapshot) opened as a project of its own, so its
 * sessions, checkpoints, terminals and tool boundary are separate from the main tree's. Merging
 * back is a three-way comparison against the base, previewed before anything is written.
 */
export class WorktreeService {
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private readonly prefixes = new Map<string, string>()
  private readonly events: Subscription
  private readonly stopOpened: () => void
  /** Port blocks being allocated for worktrees recorded without one, by project id. */
  private readonly allocating = new Map<string, Promise<void>>()

  constructor(private readonly deps: WorktreeDeps) {
    // However a worktree's project is opened (the app, a CLI run in its folder), its commands get its ports.
    this.stopOpened = deps.projects.onOpened((project) => {
      if (!project.worktreeOf) return
      const row = deps.storage.worktrees.byProject(project.id)
      if (!row) return // being created: create() sets the ports
      if (row.portFirst !== null) project.setPorts(portBlock(row.portFirst))
      else detached('worktree ports', this.allocateLater(project))
    })
    // A worktree's sessions starting, ending and changing files change its status.
    this.events = deps.bus.subscribe((event) => {
      const projectId = event.envelope.projectId
      if (projectId === undefined) return
      if (event.channel !== 'session:status' && event.channel !== 'checkpoint:created') return
      if (!deps.projects.find(projectId)?.worktreeOf) return
      this.scheduleChanged(projectId)
    })
  }

  list(parent: ProjectInstance): Promise<Worktree[]> {
    return Promise.all(this.deps.storage.worktrees.list(parent.id).map((row) => this.describe(parent, row)))
  }

  /** The worktree a project is, if it is one (the CLI resolves `--dir` of a worktree with it). */
  byProject(projectId: string): WorktreeRow | undefined {
    return this.deps.storage.worktrees.byProject(projectId)
  }

  get(parent: ProjectInstance, name: string): WorktreeRow {
    const row = this.deps.storage.worktrees.get(parent.id, name)
    if (!row) throw notFound(name)
    return row
  }

  async create(parent: ProjectInstance, input: { name?: string; base?: WorktreeBase }): Promise<{ worktree: Worktree; project: ProjectInstance }> {
    const { storage, projects, configs, checkpoints, dataDir } = this.deps
    if (parent.worktreeOf) throw new HotaruError(ErrorNames.InvalidPayload, { message: 'a worktree cannot have worktrees of its own; use its project' })
    const [loaded, repo] = await Promise.all([configs.of(parent).load(), gitRepoOf(parent.root)])
    const settings = loaded.config.worktree ?? {}
    const taken = new Set(storage.worktrees.list(parent.id).map((row) => row.name))
    const name = input.name ?? generateName(taken)
    if (taken.has(name)) throw new HotaruError('WorktreeExists', { message: `worktree "${name}" already exists`, name })
    const folder = worktreesFolder({ dataDir, projectRoot: parent.root, projectId: parent.id, configured: settings.dir })
    const top = join(folder, name)
    if (existsSync(top)) throw new HotaruError('WorktreeExists', { message: `${top} already exists`, name, path: top })
    await mkdir(folder, { recursive: true })
    let row: Omit<WorktreeRow, 'projectId' | 'path' | 'portFirst'>
    let path = top
    const undo: Array<() => Promise<unknown>> = []
    try {
      if (repo) {
        const branch = branchName(name)
        const base = (input.base ?? settings.base ?? 'head') === 'default' ? await defaultBranchCommit(repo.top) : repo.head
        // The files `.worktreeinclude` brings along are listed in the main tree while git checks out.
        const [checkout, included] = await Promise.allSettled([
          addWorktree(repo.top, CHECKOUT_CONFIG, branch, top, base),
          includedInRepo(parent.root),
        ])
        if (checkout.status === 'rejected') throw checkout.reason
        undo.push(() => git(repo.top, ['worktree', 'remove', '--force', top]), () => git(repo.top, ['branch', '-D', branch]))
        if (included.status === 'rejected') throw included.reason
        path = repo.prefix ? join(top, repo.prefix) : top
        await copyMissing(parent.root, path, included.value)
        row = { parentId: parent.id, name, kind: 'git', branch, base, createdAt: Date.now(), mergedAt: null, mergedState: null }
      } else {
        const engine = checkpoints.engine(parent)
        // Another process (a second run, the app) may be snapshotting the same folder this moment.
        const snapshot = await whenStoreFree(() => engine.snapshot())
        await mkdir(top)
        undo.push(() => rm(top, { recursive: true, force: true }))
        row = { parentId: parent.id, name, kind: 'copy', branch: null, base: snapshot.id, createdAt: Date.now(), mergedAt: null, mergedState: null }
        const index = this.indexDir(row)
        undo.push(() => rm(index, { recursive: true, force: true }))
        await engine.materialize(snapshot.id, top, index)
        // Ignored files `.worktreeinclude` names (`.env`): the others came with the snapshot.
        const patterns = await includePatterns(parent.root)
        if (patterns !== null) await copyMissing(parent.root, path, await engine.filesLeftOutMatching(patterns))
      }
      const ports = await this.freePortBlock()
      const project = projects.openFolder(path, { worktreeOf: parent })
      const full = await this.insertWithPorts({ ...row, projectId: project.id, path: project.root, portFirst: ports }, project)
      // Just made from its base: nothing to compare yet.
      const worktree = await this.describe(parent, full, { files: [], fingerprint: changesFingerprint([]) })
      this.deps.bus.publish('worktree:changed', { projectId: parent.id, name, worktree }, parent.id)
      return { worktree, project }
    } catch (error) {
      for (const step of undo.reverse()) await step().catch((cleanup: unknown) => log.warn(`[worktree] cleanup after a failed create: ${(cleanup as Error).message}`))
      throw error
    }
  }

  /** Opens the worktree's project (sessions run there). */
  async open(parent: ProjectInstance, name: string): Promise<{ worktree: Worktree; project: ProjectInstance }> {
    const row = this.get(parent, name)
    if (!existsSync(row.path)) throw new HotaruError('WorktreeMissing', { message: `the folder of worktree "${name}" (${row.path}) is gone; remove it with --force`, name })
    const project = this.deps.projects.openFolder(row.path, { worktreeOf: parent })
    if (row.portFirst === null) await this.allocateLater(project)
    return { worktree: await this.describe(parent, this.get(parent, name)), project }
  }

  async diff(parent: ProjectInstance, name: string): Promise<WorktreeDiff> {
    const row = this.get(parent, name)
    const trees = await this.trees(parent, row)
    const files = await trees.worktreeChanges()
    const base = await trees.baseContents(files.map((f) => f.from ?? f.path))
    const out = await Promise.all(
      files.map(async (f) => {
        const at = f.from ?? f.path
        return fileChange(f.path, f.status, base.contents.get(at) ?? null, await readSide(row.path, f.path), base.binary.has(at), renameOf(f))
      }),
    )
    return { name, base: row.base, files: out }
  }

  /**
   * Base → worktree (or base → main tree) of one file, for the diff editor. `from`: the worktree renamed
   * the file, and its base version is at that path.
   */
  async fileVersions(parent: ProjectInstance, name: string, path: string, side: 'worktree' | 'main' | 'merged' = 'worktree', from?: string): Promise<FileVersions> {
    const row = this.get(parent, name)
    if (side === 'merged') return this.mergedVersions(parent, row, path)
    const at = side === 'worktree' && from !== undefined ? from : path
    const base = await (await this.trees(parent, row)).baseContents([at])
    const before = base.contents.get(at) ?? null
    const after = await readSide(side === 'main' ? parent.root : row.path, path)
    const change = fileChange(path, 'modified', before, after, base.binary.has(at))
    const sideOf = (data: Buffer | null) =>
      data === null ? null : { kind: 'file' as const, size: data.length, text: change.binary ? null : data.toString('utf8') }
    return { path, binary: change.binary, old: base.binary.has(at) ? { kind: 'file', size: 0, text: null } : sideOf(before), new: sideOf(after) }
  }

  async previewMerge(parent: ProjectInstance, name: string): Promise<MergePreview> {
    return (await this.preview(parent, this.get(parent, name))).preview
  }

  /** A file merged hunk by hunk: the main tree's version → what the merge writes. */
  private async mergedVersions(parent: ProjectInstance, row: WorktreeRow, path: string): Promise<FileVersions> {
    const hunk = (await this.preview(parent, row)).hunks.get(path)
    const merged = hunk?.merged
    if (!hunk || !merged) throw new HotaruError(ErrorNames.NotFound, { message: `${path} is not merged hunk by hunk in worktree "${row.name}"`, path })
    const text = (data: Buffer) => ({ kind: 'file' as const, size: data.length, text: data.toString('utf8') })
    return { path, binary: false, old: text(hunk.current), new: text(merged) }
  }

  /** A conflicting text file's three versions in regions, for the three-way merge editor. */
  async mergeFile(parent: ProjectInstance, name: string, path: string): Promise<MergeFile> {
    const { hunks } = await this.preview(parent, this.get(parent, name))
    const hunk = hunks.get(path)
    if (!hunk || hunk.conflicts === 0) {
      throw new HotaruError(ErrorNames.NotFound, { message: `${path} is not a file with conflicting changes in worktree "${name}"`, path })
    }
    return { path, current: hunk.current.toString('utf8'), incoming: hunk.incoming.toString('utf8'), regions: hunk.regions }
  }

  /**
   * Writes the worktree's changes into the main tree, after a checkpoint of it. With conflicts and
   * neither option, nothing is written (`WorktreeConflicts`).
   */
  async merge(parent: ProjectInstance, name: string, options: MergeOptions = {}): Promise<MergeResult> {
    const row = this.get(parent, name)
    // A turn still changing the worktree would be merged half done.
    if (await this.running(row)) {
      throw new HotaruError('WorktreeRunning', { message: `a turn runs in worktree "${name}"; merge it when the turn has ended`, name })
    }
    const { preview, fingerprint, worktreeChanges, hunks } = await this.preview(parent, row)
    const resolutions = new Map((options.resolutions ?? []).map((r) => [r.path, r]))
    const conflictPaths = new Set(preview.conflicts.map((c) => c.path))
    const stale = [...resolutions.keys()].filter((path) => !conflictPaths.has(path))
    if (stale.length > 0) {
      // The trees changed since the user resolved: what they chose may no longer fit.
      throw new HotaruError('WorktreeConflicts', {
        message: `${stale.join(', ')} no longer conflict${stale.length === 1 ? 's' : ''}; look at the merge again`,
        conflicts: preview.conflicts.map((c) => c.path),
      })
    }
    const open = preview.conflicts.filter((c) => !resolutions.has(c.path))
    if (open.length > 0 && !options.skipConflicts && !options.overwriteConflicts) {
      throw new HotaruError('WorktreeConflicts', {
        message: `${open.length} file(s) changed in both the worktree and the main tree: ${open.map((c) => c.path).join(', ')}`,
        conflicts: open.map((c) => c.path),
      })
    }
    // A rename deletes its old path before writing the new one (which may lie in a folder of that name).
    type Write = { path: string; remove: boolean; from?: string; content?: Buffer }
    const fromOf = (from: string | undefined) => (from !== undefined ? { from } : {})
    const writes: Write[] = preview.apply.map((a) => ({ path: a.path, remove: a.action === 'delete', ...fromOf(a.from) }))
    // Files the main tree holds in a version of its own after this merge, by the hash of that version.
    const expected = new Map<string, string>()
    for (const m of preview.merged) {
      const merged = hunks.get(m.path)?.merged
      if (!merged) continue
      writes.push({ path: m.path, remove: false, ...fromOf(m.from), content: merged })
      expected.set(m.path, sha256(merged))
    }
    const skipped: string[] = []
    for (const conflict of preview.conflicts) {
      const change = worktreeChanges.get(conflict.path)
      const from = fromOf(change?.from)
      const resolution = resolutions.get(conflict.path)
      if (resolution && 'content' in resolution) {
        const content = Buffer.from(resolution.content, 'utf8')
        writes.push({ path: conflict.path, remove: false, ...from, content })
        expected.set(conflict.path, sha256(content))
      } else if (resolution?.take === 'main') {
        expected.set(conflict.path, sha256(await readSide(parent.root, conflict.path)))
        if (change?.from !== undefined) expected.set(change.from, sha256(await readSide(parent.root, change.from)))
      } else if (resolution?.take === 'worktree' || options.overwriteConflicts) writes.push({ path: conflict.path, remove: change?.status === 'deleted', ...from })
      else skipped.push(conflict.path)
    }
    const state = mergedStateOf(fingerprint, expected)
    if (writes.length === 0) {
      if (skipped.length === 0) this.deps.storage.worktrees.markMerged(row.projectId, state)
      return { preview, written: 0, deleted: 0, renamed: 0, merged: 0, skipped, undoCheckpointId: null, branch: row.branch }
    }
    let written = 0
    let deleted = 0
    let renamed = 0
    const { undoCheckpointId } = await this.deps.checkpoints.aroundMerge(parent.id, async () => {
      for (const write of writes) {
        if (write.from !== undefined) {
          if (await deleteFrom(parent.root, write.from)) deleted++
          renamed++
        }
        if (write.remove) {
          if (await deleteFrom(parent.root, write.path)) deleted++
        } else if (write.content !== undefined) {
          await writeInto(parent.root, write.path, write.content)
          written++
        } else {
          await copyInto(row.path, parent.root, write.path)
          written++
        }
      }
    })
    // Conflicts left as the main tree has them are not merged back: the worktree still holds work of its own.
    if (skipped.length === 0) this.deps.storage.worktrees.markMerged(row.projectId, state)
    await this.publishChanged(parent, row.projectId)
    return { preview, written, deleted, renamed, merged: preview.merged.length, skipped, undoCheckpointId, branch: row.branch }
  }

  /**
   * Deletes the worktree: its running turns stop, its project closes, the folder goes (for git through
   * `git worktree remove` and prune, and its branch unless kept). Refuses while changes are unmerged
   * unless forced.
   */
  async remove(parent: ProjectInstance, name: string, options: { force?: boolean; keepBranch?: boolean } = {}): Promise<{ removed: boolean; branchKept: boolean }> {
    const { storage, projects, agents, sessions, dataDir } = this.deps
    const row = this.get(parent, name)
    const keepBranch = row.kind === 'git' && options.keepBranch === true
    const other = await this.runningElsewhere(row.projectId)
    if (!options.force && other !== null) {
      throw new HotaruError('WorktreeRunning', { message: `a turn runs in worktree "${name}" (process ${other}); stop it first, or remove it with --force`, pid: other })
    }
    if (!options.force && existsSync(row.path)) {
      const unmerged = await this.unmerged(parent, row, keepBranch)
      if (unmerged > 0) {
        throw new HotaruError('WorktreeUnmerged', {
          message: `worktree "${name}" has ${unmerged} changed file(s) not merged back; merge it, or remove it with --force`,
          changedFiles: unmerged,
        })
      }
    }
    for (const session of sessions.list(row.projectId)) await agents.cancelSession(session.id, 'the worktree was removed')
    await projects.close(row.projectId)
    const top = row.kind === 'git' ? await this.gitTop(parent, row) : row.path
    if (row.kind === 'git') {
      const repo = await gitRepoOf(parent.root)
      const cwd = repo?.top ?? parent.root
      if (existsSync(top)) await git(cwd, ['worktree', 'remove', '--force', top])
      await git(cwd, ['worktree', 'prune'])
      if (!keepBranch && row.branch) await git(cwd, ['branch', '-D', row.branch])
    }
    await rm(top, { recursive: true, force: true })
    if (row.kind === 'copy') {
      await this.deps.checkpoints.engine(parent).forgetCopy(row.path)
      await rm(this.indexDir(row), { recursive: true, force: true })
    }
    // Where worktrees made by earlier versions kept their stat cache.
    await rm(join(this.stateDir(), `${row.projectId}.json`), { force: true })
    await rm(join(dataDir, 'snapshots', row.projectId), { recursive: true, force: true })
    await rmdirIfEmpty(dirname(top))
    storage.worktrees.remove(row.projectId)
    this.deps.bus.publish('worktree:changed', { projectId: parent.id, name, worktree: null }, parent.id)
    return { removed: true, branchKept: keepBranch }
  }

  /**
   * Marks a worktree's project as running a turn in this process until the returned release, so
   * other processes (`hotaru worktrees list`, a second CLI run, the app) see it as running.
   */
  markRunning(projectId: string): () => void {
    const file = join(this.stateDir(), `${projectId}.${process.pid}.running`)
    mkdirSync(this.stateDir(), { recursive: true })
    writeFileSync(file, String(process.pid))
    let released = false
    return () => {
      if (released) return
      released = true
      try {
        unlinkSync(file)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
    }
  }

  dispose(): void {
    this.events.dispose()
    this.stopOpened()
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
  }

  private async describe(parent: ProjectInstance, row: WorktreeRow, known?: Changes): Promise<Worktree> {
    const { sessions, projects } = this.deps
    const roots = sessions.list(row.projectId, { roots: true })
    const running = await this.running(row)
    const changes = known ?? (existsSync(row.path) ? await this.changes(parent, row) : null)
    const merged = changes !== null && (await this.mergedInto(parent, row, changes))
    return {
      name: row.name,
      kind: row.kind,
      branch: row.branch,
      path: row.path,
      base: row.base,
      parentProjectId: row.parentId,
      projectId: row.projectId,
      createdAt: row.createdAt,
      mergedAt: row.mergedAt,
      sessions: roots.length,
      changedFiles: changes?.files.length ?? -1,
      status: running ? 'running' : merged ? 'merged' : 'idle',
      open: projects.find(row.projectId) !== undefined,
      ports: row.portFirst === null ? null : portBlock(row.portFirst),
    }
  }

  /** A block no worktree of any project holds and none of whose ports is in use now. */
  private freePortBlock(): Promise<number> {
    return findFreeBlock(this.deps.storage.worktrees.portFirsts())
  }

  /**
   * Records the new worktree with its ports. Another process may have recorded the same block a moment
   * ago (the registry refuses a second holder): then the next free block is taken.
   */
  private async insertWithPorts(row: WorktreeRow, project: ProjectInstance): Promise<WorktreeRow> {
    for (let first = row.portFirst; ; first = await this.freePortBlock()) {
      project.setPorts(first === null ? null : portBlock(first))
      try {
        const full = { ...row, portFirst: first }
        this.deps.storage.worktrees.insert(full)
        return full
      } catch (error) {
        if (!String((error as Error).message).includes('worktrees.port_first')) throw error
      }
    }
  }

  /** Gives a worktree recorded before ports were given its block (once, however often it is opened). */
  private allocateLater(project: ProjectInstance): Promise<void> {
    let pending = this.allocating.get(project.id)
    if (!pending) {
      pending = (async () => {
        for (;;) {
          const first = await this.freePortBlock()
          if (this.deps.storage.worktrees.setPorts(project.id, first)) {
            project.setPorts(portBlock(first))
            return
          }
        }
      })().finally(() => this.allocating.delete(project.id))
      this.allocating.set(project.id, pending)
    }
    return pending
  }

  /** A turn runs in the worktree, in this process or another. */
  private async running(row: WorktreeRow): Promise<boolean> {
    const { sessions, agents } = this.deps
    return sessions.list(row.projectId).some((s) => agents.isBusy(s.id)) || (await this.runningElsewhere(row.projectId)) !== null
  }

  private async trees(parent: ProjectInstance, row: WorktreeRow): Promise<MergeTrees> {
    if (row.kind === 'copy') return copyTrees(row, this.deps.checkpoints.engine(parent), this.indexDir(row))
    return gitTrees(row, parent.root, await this.prefixOf(parent))
  }

  /** The project's folder inside its repository ('' at the top); it does not change while the project is open. */
  private async prefixOf(parent: ProjectInstance): Promise<string> {
    const known = this.prefixes.get(parent.root)
    if (known !== undefined) return known
    const prefix = (await gitRepoOf(parent.root))?.prefix ?? ''
    this.prefixes.set(parent.root, prefix)
    return prefix
  }

  private async changes(parent: ProjectInstance, row: WorktreeRow): Promise<Changes> {
    const files = await (await this.trees(parent, row)).worktreeChanges()
    const hashes = await Promise.all(files.map(async (f) => sha256(await readSide(row.path, f.path))))
    return { files, fingerprint: changesFingerprint(files.map((f, i) => ({ ...f, hash: hashes[i] as string }))) }
  }

  /**
   * Merged back and still in the main tree as merged: the worktree is unchanged since its last merge and
   * the main tree holds its version of every changed file. A merge undone from the timeline, or a merged
   * file changed again in the main tree, makes it unmerged again (a removal then asks for --force).
   */
  private async mergedInto(parent: ProjectInstance, row: WorktreeRow, changes: Changes): Promise<boolean> {
    if (row.mergedState === null) return false
    const { fingerprint, expected } = parseMergedState(row.mergedState)
    if (fingerprint !== changes.fingerprint) return false
    // A renamed file's old path must be gone from the main tree too (as it is from the worktree).
    const paths = changes.files.flatMap(pathsOf)
    const same = await Promise.all(
      paths.map(async (path) => {
        const hash = expected.get(path)
        return hash === undefined ? sameContent(row.path, parent.root, path) : sha256(await readSide(parent.root, path)) === hash
      }),
    )
    return same.every(Boolean)
  }

  /** Changed files that a removal would lose: all unmerged changes, or with a kept branch only the uncommitted ones. */
  private async unmerged(parent: ProjectInstance, row: WorktreeRow, keepBranch: boolean): Promise<number> {
    const changes = await this.changes(parent, row)
    if (changes.files.length === 0 || (await this.mergedInto(parent, row, changes))) return 0
    if (!keepBranch) return changes.files.length
    const status = await git(row.path, ['status', '--porcelain', '-z', '--', '.'])
    return status.split('\0').filter((r) => r !== '').length
  }

  private async preview(parent: ProjectInstance, row: WorktreeRow): Promise<Plan> {
    const trees = await this.trees(parent, row)
    const worktree = await trees.worktreeChanges()
    // A rename can conflict at either of its paths.
    const touchedPaths = worktree.flatMap(pathsOf)
    const main = await trees.mainChangesAmong(touchedPaths)
    const mainStatus = new Map(main.map((c) => [c.path, c.status]))
    const touchedByMain = (c: SideChange) => mainStatus.has(c.path) || (c.from !== undefined && mainStatus.has(c.from))
    const same = new Set<string>()
    await Promise.all(
      worktree.filter(touchedByMain).map(async (c) => {
        // The same rename on both sides: the new path alike, the old one gone from both.
        const alike = await Promise.all(pathsOf(c).map((path) => sameContent(row.path, parent.root, path)))
        if (alike.every(Boolean)) same.add(c.path)
      }),
    )
    const plan = classifyThreeWay(worktree, main, (c) => same.has(c.path))
    const changes = new Map(worktree.map((c) => [c.path, c]))
    const shown = worktree.filter((c) => !same.has(c.path))
    const base = await trees.baseContents([...new Set(shown.flatMap(pathsOf))])
    const ours = new Map(await Promise.all(worktree.map(async (c) => [c.path, await readSide(row.path, c.path)] as const)))
    const baseAt = (path: string) => base.contents.get(path) ?? null
    const ourChange = (path: string) => {
      const c = changes.get(path) ?? { path, status: 'modified' as const }
      const at = c.from ?? path
      return fileChange(path, c.status, baseAt(at), ours.get(path) ?? null, base.binary.has(at), renameOf(c))
    }
    const mainChange = async (path: string) => {
      // For a rename, what the main tree did at the old path when it changed that one.
      const from = changes.get(path)?.from
      const at = from !== undefined && mainStatus.has(from) ? from : path
      return fileChange(at, mainStatus.get(at) ?? 'modified', baseAt(at), await readSide(parent.root, at), base.binary.has(at))
    }
    // Files both sides changed are merged hunk by hunk where git can: only overlapping changes conflict.
    const sides = {
      mainRoot: parent.root,
      worktreeRoot: row.path,
      mainStatus,
      base: baseAt,
      baseBinary: (path: string) => base.binary.has(path),
      ours: (path: string) => ours.get(path) ?? null,
    }
    const hunks = new Map<string, HunkMerge>()
    for (const path of plan.conflicts) {
      const change = changes.get(path)
      const merge = change ? await mergeHunks(change, sides) : null
      if (merge) hunks.set(path, merge)
    }
    const clean = plan.conflicts.filter((path) => hunks.get(path)?.merged)
    const preview: MergePreview = {
      name: row.name,
      base: row.base,
      apply: plan.apply.map((a) => ({ ...a, change: ourChange(a.path) })),
      merged: clean.map((path) => {
        const merge = hunks.get(path) as HunkMerge
        // What the merge writes: the main tree's version becomes the merged one.
        const change = fileChange(path, 'modified', merge.current, merge.merged, false, merge.from !== undefined ? { from: merge.from, similarity: 100 } : undefined)
        return { path, ...(merge.from !== undefined ? { from: merge.from } : {}), change }
      }),
      conflicts: await Promise.all(
        plan.conflicts
          .filter((path) => !hunks.get(path)?.merged)
          .map(async (path) => {
            const conflicts = hunks.get(path)?.conflicts
            return { path, worktree: ourChange(path), main: await mainChange(path), ...(conflicts ? { hunks: conflicts } : {}) }
          }),
      ),
      same: plan.same,
    }
    const fingerprint = changesFingerprint(worktree.map((c) => ({ ...c, hash: sha256(ours.get(c.path) ?? null) })))
    return { preview, fingerprint, worktreeChanges: changes, hunks }
  }

  /** The git worktree's top folder (the project may sit in a subfolder of its repository). */
  private async gitTop(parent: ProjectInstance, row: WorktreeRow): Promise<string> {
    const repo = await gitRepoOf(parent.root)
    if (!repo?.prefix) return row.path
    const depth = repo.prefix.split('/').length
    let top = row.path
    for (let i = 0; i < depth; i++) top = dirname(top)
    return relative(top, row.path) === repo.prefix ? top : row.path
  }

  private stateDir(): string {
    return join(this.deps.dataDir, 'worktrees', '.state')
  }

  /** The copy's stat index (see `CopyIndex`), by main project and name: it is written before the copy's project exists. */
  private indexDir(row: Pick<WorktreeRow, 'parentId' | 'name'>): string {
    return join(this.stateDir(), `${row.parentId}.${row.name}.index`)
  }

  /** Another live process running a turn in the worktree (see `markRunning`); marks of dead processes are removed. */
  private async runningElsewhere(projectId: string): Promise<number | null> {
    let names: string[]
    try {
      names = await readdir(this.stateDir())
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
    for (const name of names) {
      const match = /^(.+)\.(\d+)\.running$/.exec(name)
      if (!match || match[1] !== projectId) continue
      const pid = Number(match[2])
      if (pid === process.pid) continue
      if (isAlive(pid)) return pid
      await unlink(join(this.stateDir(), name)).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      })
    }
    return null
  }

  private scheduleChanged(projectId: string): void {
    if (this.timers.has(projectId)) return
    const timer = setTimeout(() => {
      this.timers.delete(projectId)
      const row = this.deps.storage.worktrees.byProject(projectId)
      const parent = row ? this.deps.projects.find(row.parentId) : undefined
      if (parent) detached('worktree status', this.publishChanged(parent, projectId))
    }, CHANGED_DEBOUNCE_MS)
    timer.unref()
    this.timers.set(projectId, timer)
  }

  private async publishChanged(parent: ProjectInstance, projectId: string): Promise<void> {
    const row = this.deps.storage.worktrees.byProject(projectId)
    if (!row || !parent.isOpen) return
    const worktree = await this.describe(parent, row)
    this.deps.bus.publish('worktree:changed', { projectId: parent.id, name: row.name, worktree }, parent.id)
  }
}

async function rmdirIfEmpty(dir: string): Promise<void> {
  try {
    await rmdir(dir)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOENT') throw error
  }
}

/** How long a worktree copy waits for a snapshot store another process holds. */
const STORE_BUSY_WAIT_MS = 60_000

/** Runs `work`, again after a short pause while the snapshot store is held by another process. */
async function whenStoreFree<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + STORE_BUSY_WAIT_MS
  for (let pause = 50; ; pause = Math.min(pause * 2, 1000)) {
    try {
      return await work()
    } catch (error) {
      if (!(error instanceof HotaruError && error.name === SnapshotErrorNames.Busy) || Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, pause))
    }
  }
}
