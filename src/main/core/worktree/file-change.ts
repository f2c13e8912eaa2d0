import { createTwoFilesPatch } from 'diff'
import type { WorktreeFileChange } from '@shared/schema/worktree'
import { countLineChanges, isBinary } from '../snapshot'

/** Text diffs are made for files up to this size; bigger ones are listed without a diff. */
const DIFF_CAP_BYTES = 2 * 1024 * 1024

/**
 * A file's change from `before` to `after` (null = absent) as the contract lists it, with its unified diff.
 * `beforeBinary`: the old side is known to be binary though its bytes are not at hand.
 */
export function fileChange(
  path: string,
  status: WorktreeFileChange['status'],
  before: Buffer | null,
  after: Buffer | null,
  beforeBinary = false,
): WorktreeFileChange {
  const binary = beforeBinary || (before !== null && isBinary(before)) || (after !== null && isBinary(after))
  const tooLarge = (before?.length ?? 0) > DIFF_CAP_BYTES || (after?.length ?? 0) > DIFF_CAP_BYTES
  if (binary || tooLarge) return { path, status, binary, additions: 0, deletions: 0, diff: '' }
  const oldText = before?.toString('utf8') ?? ''
  const newText = after?.toString('utf8') ?? ''
  const { additions, deletions } = countLineChanges(oldText, newText)
  const diff = createTwoFilesPatch(before ? `a/${path}` : '/dev/null', after ? `b/${path}` : '/dev/null', oldText, newText, '', '', { context: 3 })
  return { path, status, binary: false, additions, deletions, diff }
}
