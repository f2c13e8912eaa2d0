import { assertSafePath, type RestoreApplier } from './restore-apply'
import { removeJournal, type RestoreJournal } from './restore-journal'
import type { RecoverResult } from './restore-types'
import type { TreeReader } from './tree-reader'

/**
 * Finishes a restore whose journal survived a crash (or a failed step). Completing re-applies
 * every op, skipping paths that already hold the target; rolling back puts every path the
 * journal names back as it was in the pre-restore snapshot. Both are idempotent, so a crash
 * during recovery is recovered the same way. Completion is tried first unless `prefer` says
 * otherwise; if it fails, the rollback runs and the reason is reported.
 */
export function recoverRestore(
  storeDir: string,
  journal: RestoreJournal,
  applier: RestoreApplier,
  reader: TreeReader,
  prefer: 'complete' | 'rollback',
): RecoverResult {
  for (const op of journal.ops) assertSafePath(op.path)
  journal.ops.forEach((op, index) => {
    if (op.op === 'write') applier.removeTemp(op.path, index)
  })
  let completeError: unknown = null
  if (prefer === 'complete') {
    try {
      journal.ops.forEach((op, index) => {
        if (op.op === 'delete') applier.delete(op.path)
        else if (!applier.matches(op.path, op.entry)) applier.write(op.path, op.entry, index)
      })
      removeJournal(storeDir)
      return { action: 'completed', targetId: journal.targetId, preRestoreId: journal.preRestoreId, unrecoverable: [] }
    } catch (error) {
      completeError = error
    }
  }
  try {
    const unrecoverable = rollBack(journal, applier, reader)
    removeJournal(storeDir)
    const result: RecoverResult = {
      action: 'rolled-back',
      targetId: journal.targetId,
      preRestoreId: journal.preRestoreId,
      unrecoverable,
    }
    if (completeError !== null) result.completeError = completeError instanceof Error ? completeError.message : String(completeError)
    return result
  } catch (error) {
    if (completeError === null) throw error
    throw new AggregateError([completeError, error], 'interrupted restore could be neither completed nor rolled back', {
      cause: error,
    })
  }
}

/** Puts every path the journal touches back as in the pre-restore snapshot; returns paths it cannot. */
function rollBack(journal: RestoreJournal, applier: RestoreApplier, reader: TreeReader): string[] {
  const unrecoverable: string[] = []
  const wanted = journal.ops.map((op) => ({ path: op.path, want: reader.lookup(journal.preRestoreId, op.path) }))
  // Removals first, so a path that was a file and became a directory (or back) has room.
  for (const { path, want } of wanted) {
    if (want === undefined) applier.delete(path)
  }
  wanted.forEach(({ path, want }, index) => {
    if (want === undefined) return
    if (want.kind === 'untracked') {
      // Its content was never stored (too large / unreadable): only an untouched file is still right.
      if (!applier.matches(path, null)) unrecoverable.push(path)
      return
    }
    if (!applier.matches(path, want)) applier.write(path, want, journal.ops.length + index)
  })
  return unrecoverable
}
