import type { StoreApi } from 'zustand'

export interface TerminalTab {
  /** Unique within the tab: terminal ids are only unique within their project. */
  key: string
  /** The project whose terminal this is: the tab's main folder or one of its worktrees. */
  projectId: string
  id: string
  pid: number
  title: string
  /** Where it runs: the main folder's name or the worktree's. */
  where: string
  exit: { exitCode: number } | null
}

export const terminalKey = (projectId: string, id: string): string => `${projectId}/${id}`

export interface TerminalsSlice {
  terminals: TerminalTab[]
  /** The key of the terminal shown. */
  activeTerminal: string | null
  addTerminal(tab: TerminalTab): void
  updateTerminal(key: string, patch: Partial<TerminalTab>): void
  removeTerminal(key: string): void
  setActiveTerminal(key: string | null): void
}

/** The terminal tabs of a project tab (its main folder's and its worktrees'); the xterm instances live in features/terminal. */
export function createTerminalsSlice(set: StoreApi<TerminalsSlice>['setState']): TerminalsSlice {
  return {
    terminals: [],
    activeTerminal: null,
    addTerminal(tab) {
      set((s) => ({
        terminals: s.terminals.some((t) => t.key === tab.key) ? s.terminals : [...s.terminals, tab],
        activeTerminal: tab.key,
      }))
    },
    updateTerminal(key, patch) {
      set((s) => ({ terminals: s.terminals.map((t) => (t.key === key ? { ...t, ...patch } : t)) }))
    },
    removeTerminal(key) {
      set((s) => {
        const index = s.terminals.findIndex((t) => t.key === key)
        const terminals = s.terminals.filter((t) => t.key !== key)
        const activeTerminal =
          s.activeTerminal === key ? (terminals[Math.min(index, terminals.length - 1)]?.key ?? null) : s.activeTerminal
        return { terminals, activeTerminal }
      })
    },
    setActiveTerminal(key) {
      set({ activeTerminal: key })
    },
  }
}
