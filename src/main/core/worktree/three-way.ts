/** A file one side changed since the base. */
export interface SideChange {
  path: string
  status: 'added' | 'modified' | 'deleted'
  /** Renamed (status `added`): its path at the base, which it no longer has. */
  from?: string
  /** Renamed: percent of the content kept (100: only the name changed). */
  similarity?: number
}

/** The paths a change touches: its own, and for a rename also the old one. */
export function pathsOf(change: SideChange): string[] {
  return change.from !== undefined ? [change.path, change.from] : [change.path]
}

export interface ThreeWay {
  /** Changed in the worktree only: the merge writes (or deletes) them. */
  /** A rename is a `create` with `from`: the old path is deleted, the new one written. */
  apply: Array<{ path: string; action: 'create' | 'update' | 'delete'; from?: string }>
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
 * A rename touches two paths: the main tree changing either of them (or adding the new one)
 * makes it a conflict, unless the main tree made the same rename. Changes of the main tree
 * alone are never part of a merge: they stay as they are.
 */
export function classifyThreeWay(worktree: readonly SideChange[], main: readonly SideChange[], sameResult: (change: SideChange) => boolean): ThreeWay {
  const mainPaths = new Set(main.map((change) => change.path))
  const result: ThreeWay = { apply: [], conflicts: [], same: [] }
  for (const change of worktree) {
    const touched = mainPaths.has(change.path) || (change.from !== undefined && mainPaths.has(change.from))
    if (!touched) result.apply.push({ path: change.path, action: ACTION[change.status], ...(change.from !== undefined ? { from: change.from } : {}) })
    else if (sameResult(change)) result.same.push(change.path)
    else result.conflicts.push(change.path)
  }
  return result
}

/**
 * A fingerprint of the worktree's changes (path, status, content hash): equal fingerprints mean
 * nothing changed in the worktree since (a merged worktree stays "merged" until then).
 */
export function changesFingerprint(entries: ReadonlyArray<{ path: string; status: string; from?: string; hash: string }>): string {
  return entries.map((e) => `${e.path}\0${e.status}${e.from !== undefined ? `\0${e.from}` : ''}\0${e.hash}`).join('\n')
}
