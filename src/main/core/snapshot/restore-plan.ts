import { ErrorNames, HotaruError } from '@shared/errors'
import type {
  ConflictReason,
  PlannedWrite,
  RestoreConflict,
  RestoreOptions,
  RestorePreview,
  SkippedPath,
  UserCreatedFile,
} from './restore-types'
import { compareNames } from './tree-codec'
import type { RawChange } from './tree-diff'
import { parentOf } from './tree-state'
import type { ManifestEntry, SnapshotId } from './types'

/** What lstat finds at a path; `notdir` when a parent component is not a directory. */
export type DiskKind = 'absent' | 'file' | 'symlink' | 'dir' | 'other' | 'notdir'

export interface DiskProbe {
  kind(path: string): DiskKind
  /** Everything on disk below `dir` (ignored files and `.git` included): files/links, and whether anything else is there. */
  contents(dir: string): { files: string[]; other: boolean }
}

/** The working tree as the planner needs it: looked up by path, never copied whole. */
export interface CurrentTree {
  get(path: string): { entry: ManifestEntry } | undefined
  /** True when `path` is a directory holding at least one snapshotted path. */
  isDir(path: string): boolean
  pathsUnder(dir: string): string[]
  readonly size: number
}

export interface PlanInput {
  targetId: SnapshotId
  currentId: SnapshotId
  baselineId: SnapshotId | null
  /** Differences from the working tree (old side) to the target (new side). */
  changes: readonly RawChange[]
  /** Differences from the baseline (old side) to the working tree (new side): the user's changes. */
  userChanges: ReadonlyMap<string, RawChange> | null
  current: CurrentTree
  options: RestoreOptions
  disk: DiskProbe
}

/**
 * Computes a restore preview. Semantics, per path where target and working tree differ:
 *
 * - Target content not in the store (untracked there) → `skipped: not-in-store`; left as is.
 * - Working-tree content not in the store (too large / unreadable) → conflict `not-in-store`:
 *   overwriting it could never be undone, so it is kept unless `overwriteConflicts`.
 * - With a baseline (the caller's last snapshot of the agent's own work), a path that differs
 *   between baseline and working tree was changed by the user:
 *     - created by the user and absent from the target → `userCreated`, kept unless
 *       `includeUserCreated` (never deleted silently);
 *     - edited, deleted, or created where the target has another version → `conflicts`,
 *       kept unless `overwriteConflicts`.
 * - Anything else is written (target has it) or deleted (target lacks it).
 *
 * Then writes that would clash with a kept path (a file where a directory is needed, or the
 * reverse) are skipped as `blocked`, and writes where an ignored file or a non-empty ignored
 * directory sits are skipped as `ignored`: ignored paths and `.git` are never touched.
 * Everything is computed from the two tree diffs, so the cost follows the size of the change.
 */
export function planRestore(input: PlanInput): RestorePreview {
  const { current, options, userChanges } = input
  const inScope = scopeMatcher(options.paths)
  const writes: PlannedWrite[] = []
  const deletes: string[] = []
  const conflicts: RestoreConflict[] = []
  const userCreated: UserCreatedFile[] = []
  const skipped: SkippedPath[] = []
  let changedInScope = 0
  let addedInScope = 0

  for (const change of input.changes) {
    const path = change.path
    if (!inScope(path)) continue
    changedInScope++
    const have = change.old
    const want = change.new
    if (!have) addedInScope++
    if (want?.kind === 'untracked') {
      skipped.push({ path, reason: 'not-in-store' })
      continue
    }
    let userChange: ConflictReason | 'created' | null = null
    if (have?.kind === 'untracked') userChange = 'not-in-store'
    else if (userChanges) {
      const userChangeHere = userChanges.get(path)
      if (userChangeHere) {
        const before = userChangeHere.old
        userChange = !before ? (want ? 'user-created' : 'created') : !have ? 'user-deleted' : 'user-modified'
      }
    }
    if (userChange === 'created') {
      userCreated.push({ path, resolution: options.includeUserCreated ? 'delete' : 'keep' })
      if (options.includeUserCreated) deletes.push(path)
      continue
    }
    if (userChange) {
      conflicts.push({ path, reason: userChange, resolution: options.overwriteConflicts ? 'overwrite' : 'keep' })
      if (!options.overwriteConflicts) continue
    }
    if (want) writes.push({ path, action: have ? 'update' : 'create', entry: want })
    else deletes.push(path)
  }

  const possible = dropBlockedWrites(writes, deletes, current, skipped)
  const safe = dropWritesOverIgnored(possible, deletes, current, input.disk, skipped)
  skipped.sort((a, b) => compareNames(a.path, b.path))
  return {
    targetId: input.targetId,
    currentId: input.currentId,
    baselineId: input.baselineId,
    writes: safe,
    deletes,
    unchanged: countInScope(current, options.paths) + addedInScope - changedInScope,
    conflicts,
    userCreated,
    skipped,
  }
}

function countInScope(current: CurrentTree, paths: readonly string[] | undefined): number {
  if (!paths) return current.size
  const scopes = paths.map(normalizeScope)
  if (scopes.includes('')) return current.size
  const seen = new Set<string>()
  for (const scope of scopes) {
    if (current.get(scope)) seen.add(scope)
    for (const path of current.pathsUnder(scope)) seen.add(path)
  }
  return seen.size
}

/** A new path is blocked by a working-tree path that stays: a kept file at one of its ancestors, or kept files below it. */
function dropBlockedWrites(
  writes: PlannedWrite[],
  deletes: readonly string[],
  current: CurrentTree,
  skipped: SkippedPath[],
): PlannedWrite[] {
  const deleted = new Set(deletes)
  return writes.filter((write) => {
    // An update replaces a working-tree file at the same path: nothing can be in its way.
    if (write.action === 'update') return true
    let blocked = current.isDir(write.path) && current.pathsUnder(write.path).some((path) => !deleted.has(path))
    for (let dir = parentOf(write.path); !blocked && dir !== ''; dir = parentOf(dir)) {
      blocked = current.get(dir) !== undefined && !deleted.has(dir)
    }
    if (blocked) skipped.push({ path: write.path, reason: 'blocked' })
    return !blocked
  })
}

/** New paths may sit where ignored content is (not in the working-tree snapshot); that content is never touched. */
function dropWritesOverIgnored(
  writes: PlannedWrite[],
  deletes: readonly string[],
  current: CurrentTree,
  disk: DiskProbe,
  skipped: SkippedPath[],
): PlannedWrite[] {
  const deleted = new Set(deletes)
  // What a directory on the way of a new path is: 'existing' (a directory now), 'new' (to be created,
  // so nothing can be below it), or 'blocked' (an ignored file sits there).
  const dirs = new Map<string, 'existing' | 'new' | 'blocked'>()
  const dirState = (dir: string): 'existing' | 'new' | 'blocked' => {
    if (dir === '' || current.isDir(dir)) return 'existing'
    const cached = dirs.get(dir)
    if (cached !== undefined) return cached
    const parent = dirState(parentOf(dir))
    let state: 'existing' | 'new' | 'blocked' = parent
    if (parent === 'existing') {
      if (current.get(dir)) {
        // A working-tree file where the directory goes: fine once the restore deletes it.
        state = deleted.has(dir) ? 'new' : 'blocked'
      } else {
        const kind = disk.kind(dir)
        state = kind === 'dir' ? 'existing' : kind === 'absent' ? 'new' : 'blocked'
      }
    }
    dirs.set(dir, state)
    return state
  }
  return writes.filter((write) => {
    if (write.action === 'update') return true
    const parent = dirState(parentOf(write.path))
    let ok = parent === 'new'
    if (parent === 'existing') {
      const kind = disk.kind(write.path)
      if (kind === 'dir') {
        const { files, other } = disk.contents(write.path)
        ok = !other && files.every((file) => deleted.has(file))
      } else {
        ok = kind === 'absent'
      }
    }
    if (!ok) skipped.push({ path: write.path, reason: 'ignored' })
    return ok
  })
}

/** Normalizes restore scope paths; a path covers itself and everything below it. */
export function scopeMatcher(paths: readonly string[] | undefined): (path: string) => boolean {
  if (!paths) return () => true
  const scopes = paths.map(normalizeScope)
  if (scopes.includes('')) return () => true
  return (path) => scopes.some((scope) => path === scope || path.startsWith(`${scope}/`))
}

function normalizeScope(raw: string): string {
  const path = raw.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/+$/, '')
  if (path === '.' || path === '') return ''
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.split('/').includes('..')) {
    throw new HotaruError(ErrorNames.InvalidPayload, { message: `restore path "${raw}" is not inside the project`, path: raw })
  }
  return path
}
