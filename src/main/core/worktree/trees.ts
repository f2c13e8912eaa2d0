import { createHash } from 'node:crypto'
import { lstat, readFile, readlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { SnapshotClient } from '../snapshot'
import type { WorktreeRow } from '../storage'
import { gitObjects } from './blobs'
import { readSide } from './disk'
import { changesSince } from './git'
import { pairExactRenames } from './renames'
import type { SideChange } from './three-way'

/** The three trees of a merge: what the worktree and the main tree changed since the base, and the base's content. */
export interface MergeTrees {
  /** Renames are one change each (`from` set), not a deletion and an addition. */
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
    worktreeChanges: async () => withExactRenames(await engine.compareDir(row.base, row.path, indexDir), row, engine),
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

/**
 * A copy's deleted and added files of identical content paired into renames: the base side's
 * content hash comes from the snapshot, the worktree side's is read from disk, only for files
 * whose size matches a deleted one.
 */
async function withExactRenames(changes: SideChange[], row: WorktreeRow, engine: SnapshotClient): Promise<SideChange[]> {
  const deleted = changes.filter((c) => c.status === 'deleted')
  const added = changes.filter((c) => c.status === 'added')
  if (deleted.length === 0 || added.length === 0) return changes
  const keys = new Map<string, string>()
  const sizes = new Set<number>()
  const entries = await engine.entries(row.base, deleted.map((c) => c.path))
  for (const [i, change] of deleted.entries()) {
    const entry = entries[i]
    if (entry?.kind === 'file') {
      keys.set(change.path, `file:${entry.hash}`)
      sizes.add(entry.size)
    } else if (entry?.kind === 'symlink') keys.set(change.path, `link:${entry.target}`)
  }
  await Promise.all(
    added.map(async (change) => {
      const key = await diskKey(join(row.path, change.path), sizes)
      if (key !== null) keys.set(change.path, key)
    }),
  )
  return pairExactRenames(changes, (change) => keys.get(change.path) ?? null)
}

/** The content key of a file on disk as `withExactRenames` compares it; null for a file no deleted one could match. */
async function diskKey(abs: string, sizes: ReadonlySet<number>): Promise<string | null> {
  const stats = await lstat(abs).catch((error: unknown) => {
    // Gone since the walk (a turn still writing): it is not a rename target now.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  })
  if (stats === null) return null
  if (stats.isSymbolicLink()) return `link:${await readlink(abs)}`
  if (!stats.isFile() || !sizes.has(stats.size)) return null
  return `file:${createHash('sha256').update(await readFile(abs)).digest('hex')}`
}
