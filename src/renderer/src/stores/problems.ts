import type { StoreApi } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { LspFileDiagnostics, LspServerStatus } from '@shared/ipc/lsp'
import { projectMirror } from './project-mirror'

export interface ProblemsState {
  /** Current problems per project-relative path (files without problems are absent). */
  files: Record<string, LspFileDiagnostics>
  servers: Record<string, LspServerStatus>
  /** The bottom panel shows Problems instead of the terminals. */
  shown: boolean
}

export type ProblemsStore = StoreApi<ProblemsState>

export interface ProblemCounts {
  errors: number
  warnings: number
}

export function countProblems(files: Record<string, LspFileDiagnostics>): ProblemCounts {
  let errors = 0
  let warnings = 0
  for (const file of Object.values(files)) {
    for (const d of file.diagnostics) {
      if (d.severity === 'error') errors += 1
      else if (d.severity === 'warning') warnings += 1
    }
  }
  return { errors, warnings }
}

const stores = new Map<string, ProblemsStore>()

function applyFile(state: ProblemsState, file: LspFileDiagnostics): Partial<ProblemsState> {
  const files = { ...state.files }
  if (file.diagnostics.length === 0) delete files[file.path]
  else files[file.path] = file
  return { files }
}

/**
 * The language-server problems of one project tab, mirrored from `lsp` events
 * (and re-read after a reconnect). Shared by the Problems panel, the status bar
 * and the editor's markers.
 */
export function problemsFor(bridge: HotaruBridge, projectId: string): ProblemsStore {
  return projectMirror(stores, projectId, {
    what: 'problems',
    initial: () => ({ files: {}, servers: {}, shown: false }),
    reload: async (store) => {
      const [diagnostics, status] = await Promise.all([bridge.lsp.diagnostics({ projectId }), bridge.lsp.status({ projectId })])
      if (diagnostics.ok) store.setState({ files: Object.fromEntries(diagnostics.value.map((f) => [f.path, f])) })
      else console.warn(`[problems] cannot read the diagnostics of ${projectId}:`, diagnostics.error.data.message)
      if (status.ok) store.setState({ servers: Object.fromEntries(status.value.map((s) => [s.id, s])) })
    },
    events: (store) => [
      bridge.lsp.onDiagnostics(({ projectId: id, payload }) => {
        if (id === projectId) store.setState((s) => applyFile(s, payload))
      }),
      bridge.lsp.onStatus(({ projectId: id, payload }) => {
        if (id === projectId) store.setState((s) => ({ servers: { ...s.servers, [payload.id]: payload } }))
      }),
    ],
  })
}
