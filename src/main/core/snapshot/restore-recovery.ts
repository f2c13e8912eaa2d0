import { assertSafePath, type RestoreApplier } from './restore-apply'
import { type JournalOp, removeJournal, type RestoreJournal } from './restore-journal'
import type { RecoverResult } from './restore-types'
import type { TreeReader } from './tree-reader'
import type { ManifestEntry } from './types'

/** What `op.path` held before the restore: from the op itself, or (version 1 journals) from the pre-restore trees. */
function beforeOf(journal: RestoreJournal, reader: TreeReader, op: JournalOp): ManifestEntry | undefined {
  if (op.before !== undefined) return op.before ?? undefined
  return reader.lookup(journal.preRestoreId, op.path)
}

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
  const kept: string[] = []
  if (prefer === 'complete') {
    try {
      journal.ops.forEach((op, index) => {
        const target = op.op === 'delete' ? null : op.entry
        if (applier.matches(op.path, target)) return
        // Not reached by the interrupted restore, and changed since by the user: theirs, as in a restore.
        if (!startedFrom(journal, applier, reader, op)) {
          kept.push(op.path)
          return
        }
        if (op.op === 'delete') applier.delete(op.path)
        else applier.write(op.path, op.entry, index)
      })
      removeJournal(storeDir)
      return { action: 'completed', targetId: journal.targetId, preRestoreId: journal.preRestoreId, unrecoverable: [], ...(kept.length ? { kept } : {}) }
    } catch (error) {
      completeError = error
    }
  }
  try {
    kept.length = 0
    const unrecoverable = rollBack(journal, applier, reader, kept)
    removeJournal(storeDir)
    const result: RecoverResult = {
      action: 'rolled-back',
      targetId: journal.targetId,
      preRestoreId: journal.preRestoreId,
      unrecoverable,
    }
    if (completeError !== null) result.completeError = completeError instanceof Error ? completeError.message : String(completeError)
    if (kept.length > 0) result.kept = kept
    return result
  } catch (error) {
    if (completeError === null) throw error
    throw new AggregateError([completeError, error], 'interrupted restore could be neither completed nor rolled back', {
      cause: error,
    })
  }
}

/** True when `path` still holds what the restore started from (the pre-restore snapshot; absent if it had none). */
function startedFrom(journal: RestoreJournal, applier: RestoreApplier, reader: TreeReader, op: JournalOp): boolean {
  const before = beforeOf(journal, reader, op)
  if (before === undefined) return applier.matches(op.path, null)
  // Content never stored: it cannot be compared, and the restore had planned to replace it.
  if (before.kind !== 'file' && before.kind !== 'symlink') return true
  return applier.matches(op.path, before)
}

/**
 * Puts every path the journal touches back as in the pre-restore snapshot; returns paths it cannot. A path
 * that holds neither the restore's target nor the old content was written by the user since: it is kept.
 */
function rollBack(journal: RestoreJournal, applier: RestoreApplier, reader: TreeReader, kept: string[]): string[] {
  const unrecoverable: string[] = []
  const wanted = journal.ops.map((op) => ({
    path: op.path,
    want: beforeOf(journal, reader, op),
    ours: applier.matches(op.path, op.op === 'delete' ? null : op.entry),
  }))
  // Removals first, so a path that was a file and became a directory (or back) has room.
  for (const { path, want, ours } of wanted) {
    if (want !== undefined || applier.matches(path, null)) continue
    if (ours) applier.delete(path)
    else kept.push(path)
  }
  wanted.forEach(({ path, want, ours }, index) => {
    if (want === undefined) return
    if (!ours && want.kind !== 'untracked' && !applier.matches(path, want)) {
      kept.push(path)
      return
    }
    if (want.kind === 'untracked') {
      // Its content was never stored (too large / unreadable): only an untouched file is still right.
      if (!applier.matches(path, null)) unrecoverable.push(path)
      return
    }
    if (!applier.matches(path, want)) applier.write(path, want, journal.ops.length + index)
  })
  return unrecoverable
}
