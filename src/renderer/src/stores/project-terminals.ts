import type { StoreApi } from 'zustand'

export interface TerminalTab {
  id: string
  pid: number
  title: string
  exit: { exitCode: number } | null
}

export interface TerminalsSlice {
  terminals: TerminalTab[]
  activeTerminal: string | null
  addTerminal(tab: TerminalTab): void
  updateTerminal(id: string, patch: Partial<TerminalTab>): void
  removeTerminal(id: string): void
  setActiveTerminal(id: string | null): void
}

/** The terminal tabs of a project; the xterm instances live in features/terminal. */
export function createTerminalsSlice(set: StoreApi<TerminalsSlice>['setState']): TerminalsSlice {
  return {
    terminals: [],
    activeTerminal: null,
    addTerminal(tab) {
      set((s) => ({
        terminals: s.terminals.some((t) => t.id === tab.id) ? s.terminals : [...s.terminals, tab],
        activeTerminal: tab.id,
      }))
    },
    updateTerminal(id, patch) {
      set((s) => ({ terminals: s.terminals.map((t) => (t.id === id ? { ...t, ...patch } : t)) }))
    },
    removeTerminal(id) {
      set((s) => {
        const index = s.terminals.findIndex((t) => t.id === id)
        const terminals = s.terminals.filter((t) => t.id !== id)
        const activeTerminal =
          s.activeTerminal === id ? (terminals[Math.min(index, terminals.length - 1)]?.id ?? null) : s.activeTerminal
        return { terminals, activeTerminal }
      })
    },
    setActiveTerminal(id) {
      set({ activeTerminal: id })
    },
  }
}
