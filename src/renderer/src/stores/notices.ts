import { createStore, type StoreApi } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { ProjectNotice } from '@shared/ipc/project'
import { onBackgroundFailure } from '../lib/background'
import { projectMirror } from './project-mirror'

export interface NoticesState {
  notices: ProjectNotice[]
}

export type NoticesStore = StoreApi<NoticesState>

const stores = new Map<string, NoticesStore>()

/**
 * The notices of one project tab (config warnings, broken extension files, MCP warnings), mirrored
 * from core's list (`project.notices`): read when first shown, again on each `project:notice` /
 * `mcp:warning` of the project and after a reconnect. Dismissing goes to core, so a reload or another
 * window does not bring the notice back.
 */
export function noticesFor(bridge: HotaruBridge, projectId: string): NoticesStore {
  return projectMirror(stores, projectId, {
    what: 'notices',
    initial: () => ({ notices: [] }),
    reload: async (store) => {
      const result = await bridge.project.notices({ projectId })
      if (result.ok) store.setState({ notices: result.value })
      else console.warn(`[notices] cannot read the notices of ${projectId}:`, result.error.data.message)
    },
    events: (_store, reload) => [
      bridge.project.onNotice(({ projectId: id }) => {
        if (id === projectId) reload()
      }),
      bridge.mcp.onWarning(({ projectId: id }) => {
        if (id === projectId) reload()
      }),
      // Trusting the folder retires its "restricted" notice in core.
      bridge.trust.onChanged(() => reload()),
    ],
  })
}

/** Dismisses notices of a project (all without `ids`): gone at once here, and in core. */
export async function dismissNotices(bridge: HotaruBridge, projectId: string, ids?: string[]): Promise<void> {
  const store = noticesFor(bridge, projectId)
  store.setState((s) => ({ notices: ids ? s.notices.filter((n) => !ids.includes(n.id)) : [] }))
  const result = await bridge.project.dismissNotices({ projectId, ...(ids ? { ids } : {}) })
  if (!result.ok) throw new Error(result.error.data.message)
}

export interface UiFailure {
  id: number
  what: string
  message: string
  at: number
}

/** Work of this page that failed in the background (a broken connection, a bug): shown beside the project's notices. */
export const uiFailures = createStore<{ failures: UiFailure[] }>(() => ({ failures: [] }))
let failureIds = 0
onBackgroundFailure(({ what, error }) => {
  const message = error instanceof Error ? error.message : String(error)
  uiFailures.setState((s) => ({ failures: [...s.failures.slice(-49), { id: ++failureIds, what, message, at: Date.now() }] }))
})

export function dismissUiFailures(ids?: number[]): void {
  uiFailures.setState((s) => ({ failures: ids ? s.failures.filter((f) => !ids.includes(f.id)) : [] }))
}
