import { create } from 'zustand'
import type { AppInfo } from '@shared/ipc/app'
import type { HotaruBridge } from '@shared/ipc'
import type { ProjectInfo, RecentProject } from '@shared/schema/project'
import { errorMessage, unwrap, type ConnectionState } from '../ipc'

export interface WorkspaceState {
  bridge: HotaruBridge | null
  connection: ConnectionState
  connectionDetail?: string
  info?: AppInfo
  projects: ProjectInfo[]
  activeId: string | null
  recent: RecentProject[]
  /** The last failed user action, shown until dismissed. */
  error?: string
}

export const useWorkspace = create<WorkspaceState>(() => ({
  bridge: null,
  connection: 'connecting',
  projects: [],
  activeId: null,
  recent: [],
}))

const get = useWorkspace.getState
const set = useWorkspace.setState

function bridge(): HotaruBridge {
  const b = get().bridge
  if (!b) throw new Error('not connected')
  return b
}

async function attempt(action: () => Promise<void>): Promise<void> {
  try {
    await action()
  } catch (error) {
    set({ error: errorMessage(error) })
  }
}

/** Actions live outside the store state so components select data only. */
export const workspace = {
  async init(b: HotaruBridge): Promise<void> {
    set({ bridge: b })
    b.project.onOpened(({ payload }) => {
      set((s) => (s.projects.some((p) => p.id === payload.id) ? s : { projects: [...s.projects, payload] }))
      void workspace.refreshRecent()
    })
    b.project.onClosed(({ payload }) => {
      set((s) => {
        const projects = s.projects.filter((p) => p.id !== payload.projectId)
        const activeId = s.activeId === payload.projectId ? (projects.at(-1)?.id ?? null) : s.activeId
        return { projects, activeId }
      })
    })
    await attempt(async () => {
      const [info, projects, recent] = await Promise.all([
        unwrap(b.app.info({})),
        unwrap(b.project.list({})),
        unwrap(b.project.recent({})),
      ])
      set({ info, projects, recent, activeId: projects[0]?.id ?? null })
    })
  },

  setConnection(connection: ConnectionState, connectionDetail?: string): void {
    set({ connection, connectionDetail })
  },

  async refreshRecent(): Promise<void> {
    await attempt(async () => set({ recent: await unwrap(bridge().project.recent({})) }))
  },

  async openFolder(path: string): Promise<boolean> {
    let opened = false
    await attempt(async () => {
      const project = await unwrap(bridge().project.open({ path }))
      set((s) => ({
        projects: s.projects.some((p) => p.id === project.id) ? s.projects : [...s.projects, project],
        activeId: project.id,
        error: undefined,
      }))
      opened = true
      await workspace.refreshRecent()
    })
    return opened
  },

  async pickFolder(): Promise<void> {
    await attempt(async () => {
      const { path } = await unwrap(bridge().project.pickFolder({}))
      if (path) await workspace.openFolder(path)
    })
  },

  async close(projectId: string): Promise<void> {
    await attempt(async () => {
      await unwrap(bridge().project.close({ projectId }))
    })
  },

  async forget(projectId: string): Promise<void> {
    await attempt(async () => {
      await unwrap(bridge().project.forget({ projectId }))
      await workspace.refreshRecent()
    })
  },

  activate(projectId: string | null): void {
    set({ activeId: projectId })
  },

  dismissError(): void {
    set({ error: undefined })
  },
}
