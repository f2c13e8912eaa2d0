import { ErrorNames, HotaruError } from '@shared/errors'
import { REVIEW_NOTE_END, type RejectedChange, type Review, type ReviewConflict, type ReviewDecision, type ReviewFile, type ReviewHunk } from '@shared/schema/review'
import type { CheckpointService } from '../checkpoint/service'
import { readFile } from '../project/files'
import { deleteEntry, writeTextFile } from '../project/fs-ops'
import type { ProjectManager } from '../project/manager'
import type { SessionStore } from '../session/store'
import type { KvRepo } from '../storage/kv-repo'
import { hunkText, patchOf, reviewHunks, revertHunks } from './hunks'
import type { StructuredPatch } from 'diff'

export interface ReviewRange {
  sessionId: string
  fromId: string
  toId: string
}

export interface DecideRequest extends ReviewRange {
  action: 'accept' | 'reject'
  /** Absent: every file of the review. */
  path?: string
  /** Absent: the whole file. */
  hunk?: number
}

export interface DecideOutcome {
  review: Review
  conflicts: ReviewConflict[]
  undoCheckpointId: string | null
}

/** Decisions of one review, as kept in the kv table (they survive reloads and restarts). */
interface StoredReview {
  hunks: Record<string, Record<string, ReviewDecision>>
  /** Files decided as a whole (binary or too large, or an added/deleted file rejected as one). */
  files: Record<string, ReviewDecision>
}

/** A file of the review with what it takes to act on it. */
interface Loaded {
  file: ReviewFile
  before: string | null
  after: string | null
  patch: StructuredPatch | null
}

/** The note the model gets about reverted changes, ahead of the user's next message. */
export function rejectionNote(changes: readonly RejectedChange[]): string {
  const one = changes.length === 1
  const body = changes.map((h) => `${h.path}:\n\`\`\`diff\n${h.diff.trimEnd()}\n\`\`\``).join('\n\n')
  return `[Review note: the user rejected ${one ? 'this change' : 'these changes'} you made, and ${one ? 'it was' : 'they were'} reverted on disk. Do not re-apply ${one ? 'it' : 'them'} unless asked.]\n\n${body}\n${REVIEW_NOTE_END}`
}

/**
 * The turn review: a turn's changes (between two checkpoints) as structured
 * hunks, accept/reject per hunk, per file or for all. Rejecting reverts on
 * disk — only where the file still has the agent's lines — after a `review`
 * checkpoint, so the review itself can be undone from the timeline. Decisions
 * and the note to the model are stored, so a reload, another window or the CLI
 * see the same state, and the next message of the session (from any client)
 * carries the note.
 */
export class ReviewService {
  constructor(
    private readonly deps: { kv: KvRepo; checkpoints: CheckpointService; projects: ProjectManager; sessions: SessionStore },
  ) {}

  async get(range: ReviewRange): Promise<Review> {
    return { ...range, files: (await this.load(range)).map((l) => l.file) }
  }

  pending(sessionId: string): RejectedChange[] {
    return this.deps.kv.get<RejectedChange[]>(noteKey(sessionId)) ?? []
  }

  /** The note for the next message of a session, once: it is cleared as it is taken. */
  takeNote(sessionId: string): string | null {
    const pending = this.pending(sessionId)
    if (pending.length === 0) return null
    this.deps.kv.delete(noteKey(sessionId))
    return rejectionNote(pending)
  }

  /** The text a new user message is stored with: the pending review note ahead of what the user wrote. */
  withNote(sessionId: string, text: string): string {
    const note = this.takeNote(sessionId)
    return note ? `${note}\n\n${text}` : text
  }

  async decide(request: DecideRequest): Promise<DecideOutcome> {
    const loaded = await this.load(request)
    const targets = request.path === undefined ? loaded : loaded.filter((l) => l.file.path === request.path)
    if (request.path !== undefined && targets.length === 0) {
      throw new HotaruError(ErrorNames.NotFound, { message: `"${request.path}" is not part of this review`, path: request.path })
    }
    const stored = this.stored(request)
    if (request.action === 'accept') {
      for (const target of targets) accept(stored, target, request.hunk)
      this.save(request, stored)
      return { review: await this.get(request), conflicts: [], undoCheckpointId: null }
    }
    const work = targets.filter((t) => hasOpen(t, request.hunk))
    if (work.length === 0) return { review: await this.get(request), conflicts: [], undoCheckpointId: null }
    const session = this.deps.sessions.get(request.sessionId)
    const root = this.deps.projects.get(session.projectId).root
    const rejected: RejectedChange[] = []
    const { result: conflicts, undoCheckpointId } = await this.deps.checkpoints.aroundReview(session, async () => {
      // One file after another: each revert reads what is on disk now.
      const found: ReviewConflict[] = []
      for (const target of work) found.push(...(await reject(root, stored, target, request.hunk, rejected)))
      return found
    })
    this.save(request, stored)
    if (rejected.length > 0) this.deps.kv.set(noteKey(request.sessionId), [...this.pending(request.sessionId), ...rejected])
    return { review: await this.get(request), conflicts, undoCheckpointId }
  }

  private async load(range: ReviewRange): Promise<Loaded[]> {
    const stored = this.stored(range)
    const entries = await this.deps.checkpoints.diff(range.fromId, range.toId)
    const loaded: Loaded[] = []
    for (const entry of entries) {
      const whole = entry.binary === true || entry.kind !== 'file' || entry.tooLarge === true || entry.untracked === true
      const versions = whole ? null : await this.deps.checkpoints.fileVersions(entry.path, range.fromId, range.toId)
      const before = versions ? (versions.old?.text ?? (versions.old ? null : '')) : null
      const after = versions ? (versions.new?.text ?? (versions.new ? null : '')) : null
      const patch = before !== null && after !== null ? patchOf(entry.path, before, after) : null
      const decisions = stored.hunks[entry.path] ?? {}
      const fileDecision = stored.files[entry.path]
      const hunks = (patch ? reviewHunks(patch) : []).map((h): ReviewHunk => {
        const decision = decisions[h.index] ?? fileDecision
        return decision ? { ...h, decision } : h
      })
      const reviewed = fileDecision !== undefined || (hunks.length > 0 && hunks.every((h) => h.decision !== undefined))
      loaded.push({
        file: { path: entry.path, status: entry.status, wholeFile: patch === null, hunks, reviewed },
        before,
        after,
        patch,
      })
    }
    return loaded
  }

  private stored(range: ReviewRange): StoredReview {
    return this.deps.kv.get<StoredReview>(reviewKey(range)) ?? { hunks: {}, files: {} }
  }

  private save(range: ReviewRange, stored: StoredReview): void {
    this.deps.kv.set(reviewKey(range), stored)
  }
}

function reviewKey(range: ReviewRange): string {
  return `review.${range.sessionId}.${range.fromId}.${range.toId}`
}

function noteKey(sessionId: string): string {
  return `review.note.${sessionId}`
}

/** Hunk indices of a file still open (not decided), limited to one hunk when asked. */
function openHunks(target: Loaded, only: number | undefined): number[] {
  return target.file.hunks.filter((h) => (only === undefined || h.index === only) && h.decision !== 'rejected').map((h) => h.index)
}

function hasOpen(target: Loaded, only: number | undefined): boolean {
  if (target.file.wholeFile) return target.file.hunks.length === 0 && !target.file.reviewed
  return openHunks(target, only).length > 0
}

function accept(stored: StoredReview, target: Loaded, only: number | undefined): void {
  const path = target.file.path
  if (target.file.wholeFile) {
    stored.files[path] ??= 'accepted'
    return
  }
  const decisions = (stored.hunks[path] ??= {})
  for (const h of target.file.hunks) {
    if (only !== undefined && h.index !== only) continue
    // A rejected hunk was reverted on disk: accepting it now would not bring it back.
    if (h.decision !== 'rejected') decisions[h.index] = 'accepted'
  }
}

async function currentText(root: string, path: string): Promise<{ text: string | null; problem?: string }> {
  try {
    const file = await readFile(root, path)
    if (file.binary) return { text: null, problem: 'it is a binary file now' }
    if (file.truncated) return { text: null, problem: 'it is too large to edit here' }
    return { text: file.content }
  } catch (error) {
    if (error instanceof HotaruError && error.name === ErrorNames.NotFound) return { text: null }
    throw error
  }
}

/** Reverts a file's open hunks (or one) on disk; returns what could not be reverted. */
async function reject(root: string, stored: StoredReview, target: Loaded, only: number | undefined, rejected: RejectedChange[]): Promise<ReviewConflict[]> {
  const { file, patch, before } = target
  const path = file.path
  const current = await currentText(root, path)
  if (current.problem) return [{ path, reason: `not reverted: ${current.problem}` }]
  if (file.wholeFile || !patch || before === null) {
    // Binary or too large: only a new file can be undone here (by deleting it).
    if (file.status !== 'added') return [{ path, reason: 'binary or too large to revert here: restore the review checkpoint or an earlier one' }]
    deleteEntry(root, path)
    stored.files[path] = 'rejected'
    rejected.push({ path, diff: `(new file ${path} deleted)` })
    return []
  }
  const indices = openHunks(target, only)
  if (file.status === 'deleted') {
    if (current.text !== null) return [{ path, reason: 'not recreated: a file exists there again' }]
    await writeTextFile(root, path, before)
    markRejected(stored, target, indices, rejected)
    return []
  }
  if (current.text === null) return [{ path, reason: 'not reverted: the file was deleted since' }]
  const all = revertHunks(patch, indices, current.text)
  if (all !== null) {
    await apply(root, target, indices, all)
    markRejected(stored, target, indices, rejected)
    return []
  }
  // Some hunks no longer match: revert those that still do, one at a time.
  const conflicts: ReviewConflict[] = []
  let text = current.text
  const done: number[] = []
  for (const index of indices) {
    const next = revertHunks(patch, [index], text)
    if (next === null) conflicts.push({ path, hunk: index, reason: 'not reverted: these lines changed since the turn' })
    else {
      text = next
      done.push(index)
    }
  }
  if (done.length > 0) {
    await apply(root, target, done, text)
    markRejected(stored, target, done, rejected)
  }
  return conflicts
}

/** Writes the reverted text; a new file whose every hunk is now rejected is deleted, not left empty. */
async function apply(root: string, target: Loaded, indices: readonly number[], text: string): Promise<void> {
  const allRejected = target.file.hunks.every((h) => h.decision === 'rejected' || indices.includes(h.index))
  if (target.file.status === 'added' && allRejected && text === '') {
    deleteEntry(root, target.file.path)
    return
  }
  await writeTextFile(root, target.file.path, text)
}

function markRejected(stored: StoredReview, target: Loaded, indices: readonly number[], rejected: RejectedChange[]): void {
  const path = target.file.path
  const decisions = (stored.hunks[path] ??= {})
  for (const index of indices) {
    decisions[index] = 'rejected'
    if (target.patch) rejected.push({ path, diff: hunkText(target.patch, index) })
  }
}
