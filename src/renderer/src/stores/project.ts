import { createContext, useContext } from 'react'
import { createStore, useStore, type StoreApi } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { ProjectLayout } from '@shared/schema/layout'
import { debounce } from '../lib/debounce'
import { createEditorSlice, type EditorSlice } from './project-editor'
import { createLayoutSlice, DEFAULT_VIEW, type LayoutSlice } from './project-layout'
import { createTerminalsSlice, type TerminalsSlice } from './project-terminals'
import { createTreeSlice, type TreeSlice } from './project-tree'
import { onResync } from './resync'
import { background } from '../lib/background'

export interface ProjectBase {
  projectId: string
  /** Absolute folder of the project (for "copy path" and drops). */
  root: string
  bridge: HotaruBridge
}

export type ProjectState = ProjectBase & TreeSlice & EditorSlice & LayoutSlice & TerminalsSlice
export type ProjectStore = StoreApi<ProjectState>

const SAVE_LAYOUT_MS = 400

function layoutOf(s: ProjectState): ProjectLayout {
  return {
    ...s.view,
    openFiles: s.openFiles,
    activeFile: s.activeFile,
    expanded: Object.keys(s.expanded).filter((p) => p !== ''),
  }
}

/**
 * One store per project tab; it outlives tab switches and ends when the tab
 * closes. It mirrors server state from events (tree, git) and saves the tab's
 * layout whenever it changes.
 */
export function createProjectStore(bridge: HotaruBridge, projectId: string, root: string): { store: ProjectStore; dispose(): void } {
  const store = createStore<ProjectState>((set, get) => ({
    projectId,
    root,
    bridge,
    ...createTreeSlice({ bridge, projectId }, set, get),
    ...createEditorSlice(set, get),
    ...createLayoutSlice(set),
    ...createTerminalsSlice(set),
  }))
  const state = store.getState

  const unsubscribers = [
    bridge.fs.onChanged(({ projectId: id, payload }) => {
      if (id === projectId) state().applyFsChanges(payload)
    }),
    bridge.fs.onGitStatus(({ projectId: id, payload }) => {
      if (id === projectId) state().setGit(payload)
    }),
    onResync(() => {
      background('reloadLoaded', state().reloadLoaded())
      background('refreshGit', state().refreshGit())
    }),
  ]

  const save = debounce((layout: ProjectLayout) => {
    background('bridge.layout.set', bridge.layout.set({ projectId, layout }).then((result) => {
      if (!result.ok) console.warn(`[layout] not saved for ${projectId}:`, result.error.data.message)
    }))
  }, SAVE_LAYOUT_MS)
  let savedKey = ''
  unsubscribers.push(
    store.subscribe((s) => {
      if (!s.layoutReady) return
      const layout = layoutOf(s)
      const key = JSON.stringify(layout)
      if (key === savedKey) return
      savedKey = key
      save(layout)
    }),
  )

  background('project load', (async () => {
    const saved = await bridge.layout.get({ projectId })
    if (!saved.ok) console.warn(`[layout] cannot read the saved layout of ${projectId}:`, saved.error.data.message)
    const layout = saved.ok ? saved.value : null
    if (layout) {
      const { openFiles, activeFile, expanded, ...view } = layout
      store.setState({
        view: { ...DEFAULT_VIEW, ...view },
        openFiles,
        activeFile: activeFile && openFiles.includes(activeFile) ? activeFile : (openFiles[0] ?? null),
        expanded: { '': true, ...Object.fromEntries(expanded.map((p) => [p, true])) },
      })
    }
    savedKey = JSON.stringify(layoutOf(state()))
    store.setState({ layoutReady: true })
    await Promise.all([state().load(''), state().refreshGit()])
    // Expanded folders load after the root, parents before children (each needs its parent shown).
    for (const path of Object.keys(state().expanded).sort((a, b) => a.split('/').length - b.split('/').length)) {
      if (path && !state().dirs[path]) await state().load(path)
    }
  })())

  return {
    store,
    dispose() {
      save.flush()
      for (const off of unsubscribers) off()
    },
  }
}

const stores = new Map<string, { store: ProjectStore; dispose(): void }>()
const dropListeners = new Set<(projectId: string) => void>()

export function projectStoreFor(bridge: HotaruBridge, projectId: string, root = ''): ProjectStore {
  let entry = stores.get(projectId)
  if (!entry) {
    entry = createProjectStore(bridge, projectId, root)
    stores.set(projectId, entry)
  }
  return entry.store
}

/** The store of an open project, if one was created. */
export function existingProjectStore(projectId: string): ProjectStore | undefined {
  return stores.get(projectId)?.store
}

/** Features that hold per-project resources (editor models, terminals) release them here. */
export function onProjectDropped(listener: (projectId: string) => void): () => void {
  dropListeners.add(listener)
  return () => dropListeners.delete(listener)
}

export function dropProjectStore(projectId: string): void {
  const entry = stores.get(projectId)
  stores.delete(projectId)
  for (const listener of [...dropListeners]) listener(projectId)
  entry?.dispose()
}

export const ProjectStoreContext = createContext<ProjectStore | null>(null)

export function useProjectStore(): ProjectStore {
  const store = useContext(ProjectStoreContext)
  if (!store) throw new Error('useProject outside a project tab')
  return store
}

export function useProject<T>(selector: (state: ProjectState) => T): T {
  return useStore(useProjectStore(), selector)
}
