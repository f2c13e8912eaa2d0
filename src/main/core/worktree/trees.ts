import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { SnapshotClient, StatCache } from '../snapshot'
import type { WorktreeRow } from '../storage'
import { gitObjects } from './blobs'
import { changesSince } from './git'
import type { SideChange } from './three-way'

/** The three trees of a merge: what the worktree and the main tree changed since the base, and the base's content. */
export interface MergeTrees {
  worktreeChanges(): Promise<SideChange[]>
  mainChanges(): Promise<SideChange[]>
  /** Base content of each path (null: absent at the base); `binary` lists paths whose base content is not text. */
  baseContents(paths: readonly string[]): Promise<{ contents: Map<string, Buffer | null>; binary: Set<string> }>
}

/** Git worktrees: `git diff <base>` plus untracked files on each side, base content from the object database. */
export function gitTrees(row: WorktreeRow, mainRoot: string, prefix: string): MergeTrees {
  return {
    worktreeChanges: () => changesSince(row.path, row.base),
    mainChanges: () => changesSince(mainRoot, row.base),
    baseContents: async (paths) => {
      const spec = (path: string): string => `${row.base}:${prefix ? `${prefix}/` : ''}${path}`
      const objects = await gitObjects(mainRoot, paths.map(spec))
      return { contents: new Map(paths.map((path) => [path, objects.get(spec(path)) ?? null])), binary: new Set() }
    },
  }
}

async function readCache(file: string): Promise<StatCache> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as StatCache
  } catch (error) {
    // A lost cache only costs re-reading the files once.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return {}
    throw error
  }
}

/** Copies: the worktree folder against the base snapshot (stat cache kept in `cacheFile`); the main tree through its own snapshots. */
export function copyTrees(row: WorktreeRow, engine: SnapshotClient, cacheFile: string): MergeTrees {
  return {
    worktreeChanges: async () => {
      const { changes, cache } = await engine.compareDir(row.base, row.path, await readCache(cacheFile))
      await mkdir(dirname(cacheFile), { recursive: true })
      await writeFile(cacheFile, JSON.stringify(cache))
      return changes
    },
    mainChanges: async () => (await engine.diff(row.base, undefined, { lineCounts: false })).map(({ path, status }) => ({ path, status })),
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
