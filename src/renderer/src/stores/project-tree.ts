import type { StoreApi } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { DirEntry } from '@shared/schema/fs'
import type { FsChanged, GitFileStatus, GitStatus } from '@shared/schema/fs-events'
import { errorMessage, unwrap } from '../ipc'
import { upsertEntry } from '../lib/collate'
import { ancestorsOf, baseName, isSameOrBelow, parentOf } from '../lib/paths'
import { background } from '../lib/background'

export interface DirState {
  entries?: DirEntry[]
  loading: boolean
  error?: string
}

/** Git decoration of a row: its own status, or that something below it changed. */
export type GitDecoration = GitFileStatus | 'contains'

export interface TreeSlice {
  dirs: Record<string, DirState>
  expanded: Record<string, boolean>
  /** The row with keyboard focus (and selection) in the tree. */
  focused: string | null
  git: GitStatus | null
  gitDecorations: Record<string, GitDecoration>
  toggle(path: string): void
  setExpanded(path: string, open: boolean): void
  collapseAll(): void
  load(path: string): Promise<void>
  /** Lists every loaded folder at or below `under` again (after a reconnect or a .gitignore edit). */
  reloadLoaded(under?: string): Promise<void>
  applyFsChanges(batch: FsChanged): void
  setFocused(path: string | null): void
  /** Expands the folders above `path`, loads them and focuses it. */
  revealInTree(path: string): Promise<void>
  refreshGit(): Promise<void>
  setGit(status: GitStatus): void
}

interface Ctx {
  bridge: HotaruBridge
  projectId: string
}

/** Per-path decorations: each changed file, and every folder above it ("contains changes"). */
export function decorate(status: GitStatus | null): Record<string, GitDecoration> {
  const out: Record<string, GitDecoration> = {}
  if (!status?.repo) return out
  for (const [path, state] of Object.entries(status.files)) {
    const clean = path.endsWith('/') ? path.slice(0, -1) : path
    out[clean] = state
    for (const dir of ancestorsOf(clean)) if (dir && !out[dir]) out[dir] = 'contains'
  }
  return out
}

/** The status of `path`, also inside an untracked folder (git reports only the folder). */
export function gitDecorationOf(decorations: Record<string, GitDecoration>, path: string): GitDecoration | undefined {
  const own = decorations[path]
  if (own) return own
  for (const dir of ancestorsOf(path)) if (dir && decorations[dir] === 'untracked') return 'untracked'
  return undefined
}

export function createTreeSlice(
  { bridge, projectId }: Ctx,
  set: StoreApi<TreeSlice>['setState'],
  get: StoreApi<TreeSlice>['getState'],
): TreeSlice {
  return {
    dirs: {},
    expanded: { '': true },
    focused: null,
    git: null,
    gitDecorations: {},
    toggle(path) {
      get().setExpanded(path, !get().expanded[path])
    },
    setExpanded(path, open) {
      set((s) => {
        const expanded = { ...s.expanded }
        if (open) expanded[path] = true
        else delete expanded[path]
        return { expanded }
      })
      if (open && !get().dirs[path]?.entries) background('load', get().load(path))
    },
    collapseAll() {
      set({ expanded: { '': true } })
    },
    async load(path) {
      set((s) => ({ dirs: { ...s.dirs, [path]: { ...s.dirs[path], loading: true } } }))
      try {
        const listing = await unwrap(bridge.fs.list({ projectId, path }))
        set((s) => ({ dirs: { ...s.dirs, [path]: { entries: listing.entries, loading: false } } }))
      } catch (error) {
        set((s) => ({ dirs: { ...s.dirs, [path]: { loading: false, error: errorMessage(error) } } }))
      }
    },
    async reloadLoaded(under = '') {
      const paths = Object.keys(get().dirs).filter((p) => isSameOrBelow(p, under))
      await Promise.all(paths.map((p) => get().load(p)))
    },
    applyFsChanges(batch) {
      set((s) => {
        const dirs = { ...s.dirs }
        let expanded = s.expanded
        const touched = new Map<string, DirEntry[]>()
        const listing = (parent: string): DirEntry[] | null => {
          const existing = touched.get(parent) ?? dirs[parent]?.entries
          return existing ?? null
        }
        for (const change of batch.changes) {
          const parent = parentOf(change.path)
          const entries = listing(parent)
          // A folder nobody has opened has no listing to update: it is read when expanded.
          if (!entries) continue
          if (change.kind === 'deleted') {
            const name = baseName(change.path)
            touched.set(parent, entries.filter((e) => e.name !== name))
            for (const key of Object.keys(dirs)) if (isSameOrBelow(key, change.path)) delete dirs[key]
            if (Object.keys(expanded).some((k) => isSameOrBelow(k, change.path))) {
              expanded = Object.fromEntries(Object.entries(expanded).filter(([k]) => !isSameOrBelow(k, change.path)))
            }
          } else if (change.entry) {
            touched.set(parent, upsertEntry(entries, change.entry))
          }
        }
        for (const [parent, entries] of touched) dirs[parent] = { ...dirs[parent], entries, loading: false }
        return { dirs, expanded }
      })
      for (const dir of batch.invalidated) background('reloadLoaded', get().reloadLoaded(dir))
    },
    setFocused(path) {
      set({ focused: path })
    },
    async revealInTree(path) {
      const folders = ancestorsOf(path)
      set((s) => ({ expanded: { ...s.expanded, ...Object.fromEntries(folders.map((f) => [f, true])) } }))
      for (const folder of folders) if (!get().dirs[folder]?.entries) await get().load(folder)
      set({ focused: path })
    },
    async refreshGit() {
      const result = await bridge.fs.gitStatus({ projectId })
      if (result.ok) get().setGit(result.value)
      else console.warn('[tree] git status unavailable:', result.error.data.message)
    },
    setGit(status) {
      set({ git: status, gitDecorations: decorate(status) })
    },
  }
}
