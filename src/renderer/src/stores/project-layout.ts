import type { StoreApi } from 'zustand'
import type { ProjectLayout } from '@shared/schema/layout'

export type PanelGroupName = keyof ProjectLayout['panels']

/** The parts of ProjectLayout this slice owns; files and folders come from the other slices. */
export type LayoutView = Pick<ProjectLayout, 'panels' | 'sidebar' | 'terminal' | 'right' | 'diffSideBySide'>

export interface LayoutSlice {
  view: LayoutView
  /** False until the saved layout was read: panels mount once, with their saved sizes (no jump). */
  layoutReady: boolean
  /** What the left sidebar shows: the file tree or find in files. */
  sidebarMode: 'files' | 'search'
  setSidebarMode(mode: 'files' | 'search'): void
  setPanels(group: PanelGroupName, sizes: Record<string, number>): void
  setView(patch: Partial<LayoutView>): void
}

export const DEFAULT_VIEW: LayoutView = {
  panels: {},
  sidebar: true,
  terminal: false,
  right: true,
  diffSideBySide: true,
}

export function createLayoutSlice(set: StoreApi<LayoutSlice>['setState']): LayoutSlice {
  return {
    view: DEFAULT_VIEW,
    layoutReady: false,
    sidebarMode: 'files',
    setSidebarMode(mode) {
      set((s) => ({ sidebarMode: mode, view: { ...s.view, sidebar: true } }))
    },
    setPanels(group, sizes) {
      set((s) => ({ view: { ...s.view, panels: { ...s.view.panels, [group]: sizes } } }))
    },
    setView(patch) {
      set((s) => ({ view: { ...s.view, ...patch } }))
    },
  }
}
