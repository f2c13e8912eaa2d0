/** A file one side changed since the base. */
export interface SideChange {
  path: string
  status: 'added' | 'modified' | 'deleted'
}

export interface ThreeWay {
  /** Changed in the worktree only: the merge writes (or deletes) them. */
  apply: Array<{ path: string; action: 'create' | 'update' | 'delete' }>
  /** Changed on both sides, differently. */
  conflicts: string[]
  /** Changed on both sides to the same result: nothing to do. */
  same: string[]
}

const ACTION = { added: 'create', modified: 'update', deleted: 'delete' } as const

/**
 * Sorts the worktree's changes against what the main tree did since the same base. A file the
 * main tree did not touch is applied; one both touched is the same change when `sameResult`
 * says both sides now hold the same thing (both deleted, or equal content), else a conflict.
 * Changes of the main tree alone are never part of a merge: they stay as they are.
 */
export function classifyThreeWay(worktree: readonly SideChange[], main: readonly SideChange[], sameResult: (path: string) => boolean): ThreeWay {
  const mainPaths = new Set(main.map((change) => change.path))
  const result: ThreeWay = { apply: [], conflicts: [], same: [] }
  for (const change of worktree) {
    if (!mainPaths.has(change.path)) result.apply.push({ path: change.path, action: ACTION[change.status] })
    else if (sameResult(change.path)) result.same.push(change.path)
    else result.conflicts.push(change.path)
  }
  return result
}

/**
 * A fingerprint of the worktree's changes (path, status, content hash): equal fingerprints mean
 * nothing changed in the worktree since (a merged worktree stays "merged" until then).
 */
export function changesFingerprint(entries: ReadonlyArray<{ path: string; status: string; hash: string }>): string {
  return entries.map((e) => `${e.path}\0${e.status}\0${e.hash}`).join('\n')
}
