import type { StoreApi } from 'zustand'
import type { EventPayload, HotaruBridge } from '@shared/ipc'
import { projectMirror } from './project-mirror'

/** A command the agent started in the background, as the `process` domain reports it. */
export type BackgroundProcess = EventPayload<'process', 'changed'>

export interface ProcessesState {
  processes: BackgroundProcess[]
}

export type ProcessesStore = StoreApi<ProcessesState>

const stores = new Map<string, ProcessesStore>()

function upsert(list: BackgroundProcess[], info: BackgroundProcess): BackgroundProcess[] {
  const index = list.findIndex((p) => p.id === info.id)
  if (index < 0) return [...list, info]
  const next = [...list]
  next[index] = info
  return next
}

/**
 * The background commands of one project tab (dev servers, watchers the agent started with
 * `bash background: true`), mirrored from `process.list` and kept current by `process:changed`.
 */
export function processesFor(bridge: HotaruBridge, projectId: string): ProcessesStore {
  return projectMirror(stores, projectId, {
    what: 'processes',
    initial: () => ({ processes: [] }),
    reload: async (store) => {
      const result = await bridge.process.list({ projectId })
      if (result.ok) store.setState({ processes: result.value })
      else console.warn(`[processes] cannot list the background processes of ${projectId}:`, result.error.data.message)
    },
    events: (store) => [
      bridge.process.onChanged(({ projectId: id, payload }) => {
        if (id === projectId) store.setState((s) => ({ processes: upsert(s.processes, payload) }))
      }),
    ],
  })
}

/** Stops a background process and everything it started; the list follows from `process:changed`. */
export async function killProcess(bridge: HotaruBridge, projectId: string, id: string): Promise<void> {
  const result = await bridge.process.kill({ projectId, id })
  if (!result.ok) throw new Error(result.error.data.message)
  processesFor(bridge, projectId).setState((s) => ({ processes: upsert(s.processes, result.value) }))
}

/** The last part of a background process's output. */
export async function processOutput(bridge: HotaruBridge, projectId: string, id: string): Promise<string> {
  const result = await bridge.process.output({ projectId, id })
  if (!result.ok) throw new Error(result.error.data.message)
  return result.value.text
}
