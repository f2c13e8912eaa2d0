import { createTwoFilesPatch } from 'diff'
import type { WorktreeFileChange } from '@shared/schema/worktree'
import { countLineChanges, isBinary } from '../snapshot'

/** Text diffs are made for files up to this size; bigger ones are listed without a diff. */
const DIFF_CAP_BYTES = 2 * 1024 * 1024

/**
 * A file's change from `before` to `after` (null = absent) as the contract lists it, with its unified diff.
 * `beforeBinary`: the old side is known to be binary though its bytes are not at hand. `rename`: the file
 * had another path at the base (`before` is the content there).
 */
export function fileChange(
  path: string,
  status: WorktreeFileChange['status'],
  before: Buffer | null,
  after: Buffer | null,
  beforeBinary = false,
  rename?: { from: string; similarity: number },
): WorktreeFileChange {
  const renamed = rename ? { from: rename.from, similarity: rename.similarity } : {}
  const binary = beforeBinary || (before !== null && isBinary(before)) || (after !== null && isBinary(after))
  const tooLarge = (before?.length ?? 0) > DIFF_CAP_BYTES || (after?.length ?? 0) > DIFF_CAP_BYTES
  if (binary || tooLarge) return { path, status, ...renamed, binary, additions: 0, deletions: 0, diff: '' }
  const oldText = before?.toString('utf8') ?? ''
  const newText = after?.toString('utf8') ?? ''
  const { additions, deletions } = countLineChanges(oldText, newText)
  const oldName = before ? `a/${rename?.from ?? path}` : '/dev/null'
  const diff = createTwoFilesPatch(oldName, after ? `b/${path}` : '/dev/null', oldText, newText, '', '', { context: 3 })
  return { path, status, ...renamed, binary: false, additions, deletions, diff }
}

/** The rename of a change, as `fileChange` takes it. */
export function renameOf(change: { from?: string; similarity?: number }): { from: string; similarity: number } | undefined {
  return change.from === undefined ? undefined : { from: change.from, similarity: change.similarity ?? 100 }
}
