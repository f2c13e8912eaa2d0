import { HotaruError } from '@shared/errors'
import type { MergeRegion } from '@shared/schema/worktree'
import { isBinary } from '../snapshot'
import { isRegularFile, readSide } from './disk'
import { mergeText, mergedText } from './merge-text'
import type { SideChange } from './three-way'

/** Files merged hunk by hunk up to this size on every side; bigger ones conflict as a whole. */
const MERGE_CAP_BYTES = 2 * 1024 * 1024

/** A file both sides changed, merged with git's merge of its three versions. */
export interface HunkMerge {
  path: string
  /** Renamed in the worktree from this path, which the main tree changed: the merge deletes it. */
  from?: string
  /** The main tree's path the merge started from (`from` for such a rename, else `path`). */
  at: string
  current: Buffer
  incoming: Buffer
  regions: MergeRegion[]
  conflicts: number
  /** The merged file, when it has no conflicts. */
  merged: Buffer | null
}

interface Sides {
  mainRoot: string
  worktreeRoot: string
  /** The main tree's status of each path it changed since the base. */
  mainStatus: ReadonlyMap<string, SideChange['status']>
  base(path: string): Buffer | null
  baseBinary(path: string): boolean
  ours(path: string): Buffer | null
}

/** Text that survives a round trip through a string (invalid UTF-8 would not come back as it was). */
function mergeableText(data: Buffer | null): data is Buffer {
  return data !== null && data.length <= MERGE_CAP_BYTES && !isBinary(data) && Buffer.from(data.toString('utf8'), 'utf8').equals(data)
}

/**
 * Merges a file both sides changed the way `git merge` would, when it can be merged line by line: text on
 * every side, a regular file on both, edited on both (or added on both), and for a worktree rename the main
 * tree changed only the old path. Null: it conflicts as a whole (a deletion, a binary, a link, a rename
 * meeting another change). Without git installed (copies of non-git folders) every such file is null too.
 */
export async function mergeHunks(change: SideChange, sides: Sides): Promise<HunkMerge | null> {
  const { mainStatus } = sides
  if (change.status === 'deleted') return null
  const renamed = change.from !== undefined
  if (renamed && (mainStatus.has(change.path) || !mainStatus.has(change.from as string))) return null
  const at = change.from ?? change.path
  const status = mainStatus.get(at)
  const addedOnBoth = !renamed && change.status === 'added' && status === 'added'
  if (status !== 'modified' && !addedOnBoth) return null
  if (change.status !== 'modified' && !renamed && !addedOnBoth) return null
  const base = addedOnBoth ? Buffer.alloc(0) : sides.base(at)
  if (sides.baseBinary(at) || !mergeableText(base)) return null
  if (!(await isRegularFile(sides.mainRoot, at)) || !(await isRegularFile(sides.worktreeRoot, change.path))) return null
  const current = await readSide(sides.mainRoot, at)
  const incoming = sides.ours(change.path)
  if (!mergeableText(current) || !mergeableText(incoming)) return null
  let regions: MergeRegion[]
  try {
    regions = (await mergeText(current.toString('utf8'), base.toString('utf8'), incoming.toString('utf8'))).regions
  } catch (error) {
    if (error instanceof HotaruError && error.name === 'GitMissing') return null
    throw error
  }
  const conflicts = regions.filter((r) => r.kind === 'conflict').length
  const merged = conflicts === 0 ? Buffer.from(mergedText(regions, () => ''), 'utf8') : null
  return { path: change.path, ...(renamed ? { from: at } : {}), at, current, incoming, regions, conflicts, merged }
}
