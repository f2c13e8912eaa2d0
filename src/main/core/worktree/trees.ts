import type { SnapshotClient } from '../snapshot'
import type { WorktreeRow } from '../storage'
import { gitObjects } from './blobs'
import { readSide } from './disk'
import { changesSince } from './git'
import type { SideChange } from './three-way'

/** The three trees of a merge: what the worktree and the main tree changed since the base, and the base's content. */
export interface MergeTrees {
  worktreeChanges(): Promise<SideChange[]>
  /**
   * Which of `paths` the main tree changed since the base (committed or not): only files the
   * worktree changed can conflict, so the rest of the main tree is never walked.
   */
  mainChangesAmong(paths: readonly string[]): Promise<SideChange[]>
  /** Base content of each path (null: absent at the base); `binary` lists paths whose base content is not text. */
  baseContents(paths: readonly string[]): Promise<{ contents: Map<string, Buffer | null>; binary: Set<string> }>
}

/** Git worktrees: `git diff <base>` plus untracked files on each side, base content from the object database. */
export function gitTrees(row: WorktreeRow, mainRoot: string, prefix: string): MergeTrees {
  // The base never changes: blobs read once (for the main tree's side) serve the diffs of the same preview.
  const known = new Map<string, Buffer | null>()
  const baseContents = async (paths: readonly string[]) => {
    const spec = (path: string): string => `${row.base}:${prefix ? `${prefix}/` : ''}${path}`
    const missing = paths.filter((path) => !known.has(path))
    if (missing.length > 0) {
      const objects = await gitObjects(mainRoot, missing.map(spec))
      for (const path of missing) known.set(path, objects.get(spec(path)) ?? null)
    }
    return { contents: new Map(paths.map((path) => [path, known.get(path) ?? null])), binary: new Set<string>() }
  }
  return {
    worktreeChanges: () => changesSince(row.path, row.base),
    mainChangesAmong: async (paths) => {
      const base = await baseContents(paths)
      const current = await Promise.all(paths.map((path) => readSide(mainRoot, path)))
      return paths.flatMap((path, i) => {
        const status = sideStatus(base.contents.get(path) ?? null, current[i] ?? null)
        return status ? [{ path, status }] : []
      })
    },
    baseContents,
  }
}

/** How a file went from `before` to `after` (null: absent); null when it did not change. */
function sideStatus(before: Buffer | null, after: Buffer | null): SideChange['status'] | null {
  if (before === null) return after === null ? null : 'added'
  if (after === null) return 'deleted'
  return before.equals(after) ? null : 'modified'
}

/** Copies: the worktree folder against the base snapshot (its stat index kept in `indexDir`); the main tree through its own snapshots. */
export function copyTrees(row: WorktreeRow, engine: SnapshotClient, indexDir: string): MergeTrees {
  return {
    worktreeChanges: () => engine.compareDir(row.base, row.path, indexDir),
    mainChangesAmong: (paths) => engine.comparePaths(row.base, [...paths]),
    baseContents: async (paths) => {
      const contents = new Map<string, Buffer | null>()
      const binary = new Set<string>()
      await Promise.all(
        paths.map(async (path) => {
          const versions = await engine.fileVersions(path, row.base, row.base)
          const side = versions.old
          if (side && side.text === null) binary.add(path)
          contents.set(path, side?.text != null ? Buffer.from(side.text, 'utf8') : null)
        }),
      )
      return { contents, binary }
    },
  }
}
