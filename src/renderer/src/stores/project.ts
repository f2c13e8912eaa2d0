import { createContext, useContext } from 'react'
import { createStore, useStore, type StoreApi } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { DirEntry, FileContent } from '@shared/schema/fs'
import { errorMessage, unwrap } from '../ipc'

export interface DirState {
  entries?: DirEntry[]
  loading: boolean
  error?: string
}

export interface ProjectState {
  projectId: string
  dirs: Record<string, DirState>
  expanded: Record<string, boolean>
  selected: string | null
  file: FileContent | null
  fileError?: string
  toggle(path: string): void
  load(path: string): Promise<void>
  openFile(path: string): Promise<void>
}

export type ProjectStore = StoreApi<ProjectState>

/** One store per project tab; it outlives tab switches and ends when the tab closes. */
export function createProjectStore(bridge: HotaruBridge, projectId: string): ProjectStore {
  return createStore<ProjectState>((set, get) => ({
    projectId,
    dirs: {},
    expanded: { '': true },
    selected: null,
    file: null,
    toggle(path) {
      const open = !get().expanded[path]
      set((s) => ({ expanded: { ...s.expanded, [path]: open } }))
      if (open && !get().dirs[path]?.entries) void get().load(path)
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
    async openFile(path) {
      set({ selected: path, fileError: undefined })
      try {
        const file = await unwrap(bridge.fs.read({ projectId, path }))
        if (get().selected === path) set({ file })
      } catch (error) {
        if (get().selected === path) set({ file: null, fileError: errorMessage(error) })
      }
    },
  }))
}

const stores = new Map<string, ProjectStore>()

export function projectStoreFor(bridge: HotaruBridge, projectId: string): ProjectStore {
  let store = stores.get(projectId)
  if (!store) {
    store = createProjectStore(bridge, projectId)
    stores.set(projectId, store)
  }
  return store
}

export function dropProjectStore(projectId: string): void {
  stores.delete(projectId)
}

export const ProjectStoreContext = createContext<ProjectStore | null>(null)

export function useProject<T>(selector: (state: ProjectState) => T): T {
  const store = useContext(ProjectStoreContext)
  if (!store) throw new Error('useProject outside a project tab')
  return useStore(store, selector)
}
